// The lobby list and a LAN match between two controllers over loopback in one process (no
// multicast: the host is "found" by feeding the lobby model the peer, with its real address).
package org.banco.shell.tests

import org.banco.BancoException
import org.banco.Color
import org.banco.GameKind
import org.banco.Lobby
import org.banco.LobbyPeer
import org.banco.RepetitionRule
import org.banco.shell.LobbyModel
import org.banco.shell.MatchController
import org.banco.shell.MatchController.Phase
import org.banco.shell.MulticastGuard
import org.banco.shell.RulesPreset
import org.banco.shell.Settings
import org.banco.shell.square
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread

fun peer(id: String, name: String, address: String = "127.0.0.1:1"): LobbyPeer =
    LobbyPeer(id, name, listOf(GameKind.XIANGQI), 1u.toUShort(), "", "$name.local", address.substringAfterLast(':').toUShort(), listOf(address))

/** A TCP proxy between guest and host whose connections can be cut (a phone leaving Wi-Fi range). */
class CutProxy(private val target: InetSocketAddress) : AutoCloseable {
    private val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
    private val open = CopyOnWriteArrayList<Socket>()
    val address: String get() = "127.0.0.1:${server.localPort}"

    init {
        thread(isDaemon = true, name = "proxy-accept") {
            while (!server.isClosed) {
                val down = runCatching { server.accept() }.getOrNull() ?: break
                val up = runCatching { Socket(target.address, target.port) }.getOrNull()
                if (up == null) {
                    down.close()
                    continue
                }
                open += down
                open += up
                pump(down, up)
                pump(up, down)
            }
        }
    }

    private fun pump(from: Socket, to: Socket) = thread(isDaemon = true, name = "proxy-pump") {
        runCatching { from.getInputStream().copyTo(to.getOutputStream()) }
        runCatching { from.close() }
        runCatching { to.close() }
    }

    /** Drops every connection (both ends see the link go down); new ones are accepted. */
    fun cut() {
        for (s in open) runCatching { s.close() }
        open.clear()
    }

    override fun close() {
        server.close()
        cut()
    }
}

fun lobbyMatchTests(s: Suite) {
    s.test("lobby: peers found, updated and lost from Rust threads; discovery errors") {
        val ui = TestUi()
        val held = AtomicInteger()
        val guard = object : MulticastGuard {
            override fun acquire() { held.incrementAndGet() }
            override fun release() { held.decrementAndGet() }
        }
        val lobby = LobbyModel(ui, guard)
        val threads = (1..3).map { i ->
            thread { lobby.onPeerFound(peer("id$i", listOf("Chi", "an", "Binh")[i - 1])) }
        }
        threads.forEach { it.join() }
        var st = ui.await(lobby.state, "three peers") { it.peers.size == 3 }
        eq(listOf("an", "Binh", "Chi"), st.peers.map { it.name }, "sorted by name")
        lobby.onPeerUpdated(peer("id1", "Chi", "127.0.0.1:7368"))
        lobby.onPeerFound(peer("id2", "An"))
        st = ui.await(lobby.state, "an update") { p -> p.peers.any { it.name == "An" } }
        eq(3, st.peers.size, "updates replace, never duplicate")
        eq(listOf("127.0.0.1:7368"), st.peers.first { it.id == "id1" }.addresses)
        lobby.onPeerLost("id3")
        lobby.onPeerLost("nobody")
        st = ui.await(lobby.state, "a peer lost") { it.peers.size == 2 }
        eq(listOf("An", "Chi"), st.peers.map { it.name })
        lobby.onError("mDNS hiccup")
        eq("mDNS hiccup", ui.await(lobby.state, "error") { it.error != null }.error)
        // Discovery that cannot start reports why and releases the multicast lock.
        ui.call { lobby.start { throw BancoException.Network("no Wi-Fi") } }
        st = ui.call { lobby.state.value }
        check(!st.discovering && st.error?.contains("no Wi-Fi") == true) { "$st" }
        eq(0, held.get(), "multicast lock released")
        ui.call { lobby.stop() }
        ui.shutdown()
    }

    s.test("a LAN match between two controllers over loopback: code, proposal, moves, offers, resign") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        val host = hostUi.call {
            MatchController.host(hostUi, Settings(playerName = "An", color = Color.RED, rules = RulesPreset.CASUAL), "127.0.0.1:0", advertise = false)
        }
        var guest: MatchController? = null
        try {
            val address = hostUi.await(host.state, "listening") { it.phase == Phase.LISTENING }.address
            check(address.startsWith("127.0.0.1:")) { address }
            // The lobby "finds" the host, and the player taps it.
            val lobby = LobbyModel(guestUi)
            lobby.onPeerFound(peer("An@host", "An", address))
            val found = guestUi.await(lobby.state, "the host in the list") { it.peers.isNotEmpty() }.peers.single()
            val g = guestUi.call { lobby.join(found, Settings(playerName = "Binh")) }
            guest = g
            val hv = hostUi.await(host.state, "host code") { it.phase == Phase.VERIFY }
            val gv = guestUi.await(g.state, "guest code") { it.phase == Phase.VERIFY }
            eq(hv.code, gv.code, "both phones show the same code")
            eq(6, hv.code?.length)
            eq("Binh", hv.peerName)
            eq("An", gv.peerName)
            hostUi.call { host.confirmCode() }
            guestUi.call { g.confirmCode() }
            val proposed = guestUi.await(g.state, "proposal") { it.phase == Phase.PROPOSED }
            eq(Color.BLACK, proposed.myColor)
            eq(RepetitionRule.CASUAL, proposed.rules?.repetition)
            guestUi.call { g.acceptProposal() }
            var hs = hostUi.await(host.state, "host playing") { it.phase == Phase.PLAYING }
            var gs = guestUi.await(g.state, "guest playing") { it.phase == Phase.PLAYING }
            check(hs.myTurn && !gs.myTurn && gs.board.flipped && !hs.board.flipped) { "$hs / $gs" }

            // Moves by taps both ways; a tap out of turn does nothing.
            guestUi.call { g.tap(square("h9")) }
            eq(null, guestUi.call { g.state.value.board.selected }, "not the guest's turn")
            hostUi.call { host.tap(square("h2")); host.tap(square("e2")) }
            gs = guestUi.await(g.state, "the host's move") { it.moves.size == 1 }
            eq(square("e2"), gs.board.lastMove?.to)
            eq("炮二平五", gs.moves.single())
            check(gs.myTurn)
            guestUi.call { g.tap(square("h9")); g.tap(square("g7")) }
            hs = hostUi.await(host.state, "the guest's move") { it.moves.size == 2 }
            check(hs.myTurn)

            // The guest asks to take back; the host agrees.
            guestUi.call { g.requestUndo() }
            hostUi.await(host.state, "undo request") { it.undoRequest != null }
            hostUi.call { host.replyUndo(true) }
            gs = guestUi.await(g.state, "undone") { it.moves.size == 1 }
            hs = hostUi.await(host.state, "undone") { it.moves.size == 1 && it.undoRequest == null }
            check(gs.myTurn && !hs.myTurn)

            // A draw offer, declined.
            hostUi.call { host.offerDraw() }
            guestUi.await(g.state, "draw offer") { it.drawOffered }
            guestUi.call { g.replyDraw(false) }
            hs = hostUi.await(host.state, "draw declined") { it.notice != null }
            check(hs.notice!!.contains("declined")) { hs.notice!! }
            hostUi.call { host.clearNotice() }

            // Playing out of turn is refused with a readable notice, not a crash.
            hostUi.call { host.play(org.banco.shell.mv("a0", "a1")) }
            eq("it is not your turn", hostUi.call { host.state.value.notice })

            guestUi.call { g.resign() }
            hs = hostUi.await(host.state, "game over") { it.phase == Phase.OVER }
            gs = guestUi.await(g.state, "game over") { it.phase == Phase.OVER }
            eq("You won: resignation", hs.result)
            eq("You lost: resignation", gs.result)
            check(!hs.myTurn && !gs.myTurn)
        } finally {
            guest?.let { g -> guestUi.call { g.leave() } }
            hostUi.call { host.leave() }
        }
        eq(Phase.CLOSED, hostUi.call { host.state.value.phase })
        hostUi.shutdown()
        guestUi.shutdown()
    }

    s.test("a match survives a lost connection: banner while down, resumed, play goes on") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        val host = hostUi.call { MatchController.host(hostUi, Settings(playerName = "An"), "127.0.0.1:0", advertise = false) }
        val address = hostUi.await(host.state, "listening") { it.phase == Phase.LISTENING }.address
        val proxy = CutProxy(InetSocketAddress("127.0.0.1", address.substringAfterLast(':').toInt()))
        val g = guestUi.call { MatchController.join(guestUi, "Binh", proxy.address) }
        try {
            hostUi.await(host.state, "code") { it.phase == Phase.VERIFY }
            guestUi.await(g.state, "code") { it.phase == Phase.VERIFY }
            hostUi.call { host.confirmCode() }
            guestUi.call { g.confirmCode() }
            guestUi.await(g.state, "proposal") { it.phase == Phase.PROPOSED }
            guestUi.call { g.acceptProposal() }
            hostUi.await(host.state, "playing") { it.phase == Phase.PLAYING }
            hostUi.call { host.tap(square("b2")); host.tap(square("e2")) }
            guestUi.await(g.state, "first move") { it.moves.size == 1 }

            // Every state each side goes through (the banner may be up only briefly).
            val guestStates = java.util.concurrent.CopyOnWriteArrayList<MatchController.State>()
            val hostStates = java.util.concurrent.CopyOnWriteArrayList<MatchController.State>()
            guestUi.call { g.state.observe { guestStates += it } }
            hostUi.call { host.state.observe { hostStates += it } }
            proxy.cut()
            val deadline = System.nanoTime() + 30_000_000_000
            while (guestStates.none { it.banner != null } && System.nanoTime() < deadline) Thread.sleep(5)
            val down = guestStates.firstOrNull { it.banner != null } ?: throw AssertionError("no banner on the guest")
            check(!down.myTurn) { "no moves while the connection is down" }
            // The guest redials through the proxy; the session resumes without a new code.
            guestUi.await(g.state, "resumed", seconds = 60) { it.banner == null }
            hostUi.await(host.state, "resumed", seconds = 60) { it.banner == null }
            val gs = guestUi.call { g.state.value }
            check(gs.phase == Phase.PLAYING && gs.myTurn) { "$gs" }
            guestUi.call { g.tap(square("b9")); g.tap(square("c7")) }
            val hs = hostUi.await(host.state, "a move after resuming") { it.moves.size == 2 }
            check(hs.myTurn)
            println("  host banners: ${hostStates.mapNotNull { it.banner }.distinct()}; guest: ${guestStates.mapNotNull { it.banner }.distinct()}")
        } finally {
            guestUi.call { g.leave() }
            hostUi.call { host.leave() }
            proxy.close()
        }
        // Events fed by hand: the banner states (for platforms where the link drops differently).
        val c = hostUi.call { MatchController.host(hostUi, Settings(playerName = "An"), "127.0.0.1:0", advertise = false) }
        hostUi.await(c.state, "listening") { it.phase == Phase.LISTENING }
        hostUi.call {
            c.handle(org.banco.MatchEvent.Reconnecting(2u, 500uL))
            eq("Connection lost. Reconnecting (attempt 2)…", c.state.value.banner)
            c.leave()
        }
        hostUi.shutdown()
        guestUi.shutdown()
    }
}
