// Match and Lobby: a LAN match between two Match objects over loopback in one process —
// pairing codes, proposal, moves both ways, undo request, draw offer, resignation.
package org.banco.tests

import org.banco.*
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

class QueueMatchListener(val who: String) : MatchListener {
    val events = LinkedBlockingQueue<MatchEvent>()
    val seen = java.util.concurrent.CopyOnWriteArrayList<MatchEvent>()

    val threads = java.util.concurrent.CopyOnWriteArraySet<String>()

    override fun onEvent(event: MatchEvent) {
        threads += Thread.currentThread().name
        seen += event
        events += event
    }

    /** The next event of type [T], skipping others (30 s at most). */
    inline fun <reified T : MatchEvent> next(): T {
        val deadline = System.nanoTime() + 30_000_000_000L
        while (true) {
            val left = deadline - System.nanoTime()
            val e = events.poll(maxOf(left, 0L), TimeUnit.NANOSECONDS)
                ?: throw AssertionError("$who: no ${T::class.simpleName} in 30 s; saw $seen")
            if (e is T) return e
        }
    }
}

fun matchTests(s: Suite) {
    s.test("a LAN match between two Match objects over loopback") {
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val host = Match.host("An", "127.0.0.1:0", false, Color.RED, RepetitionRule.ASIAN, hostEvents)
        val address = hostEvents.next<MatchEvent.Listening>().address
        eq(address, host.address())
        check(address.startsWith("127.0.0.1:")) { address }
        val guest = Match.join("Binh", address, guestEvents)
        try {
            val hc = hostEvents.next<MatchEvent.VerifyCode>()
            val gc = guestEvents.next<MatchEvent.VerifyCode>()
            eq(hc.code, gc.code, "both phones show the same code")
            eq(6, hc.code.length)
            eq("Binh", hc.peerName)
            eq("An", gc.peerName)
            eq(hc.code, host.code())
            throws<BancoException.Match> { host.playText("h2e2", Notation.COORDINATE) }
            host.confirmCode()
            guest.confirmCode()
            val proposed = guestEvents.next<MatchEvent.Proposed>()
            eq(Color.BLACK, proposed.yourColor)
            eq(RepetitionRule.ASIAN, proposed.rules.repetition)
            guest.acceptProposal()
            eq(Color.RED, hostEvents.next<MatchEvent.Started>().yourColor)
            eq(Color.BLACK, guestEvents.next<MatchEvent.Started>().yourColor)
            eq(Color.RED, host.yourColor())

            val e = throws<BancoException.Match> { guest.playText("h9g7", Notation.COORDINATE) }
            eq("it is not your turn", e.message)
            throws<BancoException.IllegalMove> { host.playText("h2h8", Notation.COORDINATE) }
            host.playText("C2=5", Notation.WXF)
            val m1 = guestEvents.next<MatchEvent.MovePlayed>()
            eq("h2e2", m1.played.coordinate)
            check(!m1.mine && m1.by == Color.RED)
            check(hostEvents.next<MatchEvent.MovePlayed>().mine)
            guest.playText("马8进7", Notation.CHINESE)
            eq("h9g7", hostEvents.next<MatchEvent.MovePlayed>().played.coordinate)
            guestEvents.next<MatchEvent.MovePlayed>()
            host.play(mv("h0", "g2"))
            hostEvents.next<MatchEvent.MovePlayed>()
            guestEvents.next<MatchEvent.MovePlayed>()

            // The guest asks to take back; the host declines, then allows.
            guest.playText("i9h9", Notation.COORDINATE)
            guestEvents.next<MatchEvent.MovePlayed>()
            hostEvents.next<MatchEvent.MovePlayed>()
            guest.requestUndo()
            hostEvents.next<MatchEvent.UndoRequested>()
            host.replyUndo(false)
            guestEvents.next<MatchEvent.UndoDeclined>()
            guest.requestUndo()
            val req = hostEvents.next<MatchEvent.UndoRequested>()
            eq(3u, req.toPly)
            host.replyUndo(true)
            eq(3u, guestEvents.next<MatchEvent.Undone>().toPly)
            eq(3u, hostEvents.next<MatchEvent.Undone>().toPly)
            eq(host.game().fen(), guest.game().fen())
            eq(3u, guest.game().status().ply)

            // A draw offer, declined; then the guest resigns.
            host.offerDraw()
            guestEvents.next<MatchEvent.DrawOffered>()
            guest.replyDraw(false)
            hostEvents.next<MatchEvent.DrawDeclined>()
            guest.resign()
            val over = hostEvents.next<MatchEvent.GameOver>()
            eq(Outcome.Win(Color.RED, WinReason.RESIGNATION), over.outcome)
            eq(over.outcome, guestEvents.next<MatchEvent.GameOver>().outcome)
            throws<BancoException.Match> { host.playText("i0i1", Notation.COORDINATE) }
        } finally {
            guest.leave()
            host.leave()
        }
        hostEvents.next<MatchEvent.Closed>()
        guestEvents.next<MatchEvent.Closed>()
        // Events come on a Rust-owned thread (JNA gives it a new Thread-N name per call),
        // never on the caller's.
        check(Thread.currentThread().name !in hostEvents.threads) { "${hostEvents.threads}" }
        throws<BancoException.Match> { host.offerDraw() }
    }

    s.test("match and lobby errors and garbage") {
        val l = QueueMatchListener("x")
        for (addr in garbageStrings + listOf("999.1.1.1:1", "127.0.0.1:99999", "[::1")) {
            throws<BancoException> { Match.host("An", addr, false, Color.RED, RepetitionRule.ASIAN, l) }
        }
        for (name in listOf("", "   ", "x".repeat(100))) {
            throws<BancoException.InvalidArgument> { Match.host(name, "127.0.0.1:0", false, Color.RED, RepetitionRule.CASUAL, l) }
            throws<BancoException.InvalidArgument> { Match.join(name, "127.0.0.1:1", l) }
        }
        for (t in garbageStrings) tolerate("join") { Match.join("An", t, l).leave() }
        val nowhere = LobbyPeer("id", "Nobody", listOf(GameKind.XIANGQI), null, "", "h", 1u, listOf("not an address"))
        throws<BancoException.Network> { Match.joinPeer("An", nowhere, l) }
        // The lobby on loopback: starts, browses, advertises, withdraws, stops.
        tolerate("lobby") {
            Lobby(listOf("lo")).use { lobby ->
                val found = LinkedBlockingQueue<String>()
                lobby.browse(object : LobbyListener {
                    override fun onPeerFound(peer: LobbyPeer) { found += peer.name }
                    override fun onPeerUpdated(peer: LobbyPeer) {}
                    override fun onPeerLost(id: String) {}
                    override fun onError(message: String) {}
                })
                tolerate("advertise") {
                    val id = lobby.advertise("Chi", 7368u)
                    lobby.withdraw(id)
                }
                tolerate("withdraw garbage") { lobby.withdraw("nonsense") }
                lobby.stop()
                throws<BancoException.NotAvailable> { lobby.advertise("Chi", 1u) }
            }
        }
    }
}
