// Match and Lobby: a LAN match between two Match objects over loopback in one process — the
// host offers both games and proposes chess; codes, state(), moves both ways (taps, moves,
// text), a promotion through the picker, undo request, draw offer, mate and the result from
// both sides; then a xiangqi game proposed, declined, proposed again, resigned.
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

/** Taps the cell showing square [name] on this side's board. */
fun Match.tapSquare(name: String): TapResult {
    val c = state().board!!.cell(name)
    return tap(c.column, c.row)
}

/** Waits until both sides have seen a move (each side hears every move once). */
fun bothSee(a: QueueMatchListener, b: QueueMatchListener): PlayedMove {
    val x = a.next<MatchEvent.MovePlayed>()
    val y = b.next<MatchEvent.MovePlayed>()
    eq(x.played, y.played, "both sides saw the same move")
    check(x.mine != y.mine) { "exactly one side played it" }
    return x.played
}

fun matchTests(s: Suite) {
    s.test("a typed clock: read as the terminal reads it, written back, refused with what to type") {
        eq(MatchClock(420_000u, 2_000u), parseClock("7+2"), "minutes + seconds")
        eq("30s+1", clockText(parseClock("0.5 + 1")), "half a minute, written back in seconds")
        eq("10", clockText(parseClock("10")), "no increment")
        for (bad in listOf("5s", "", "five", "1441", "5+3601")) {
            val e = throws<BancoException.InvalidArgument> { parseClock(bad) }
            check(e.message!!.isNotEmpty()) { bad }
        }
        check(throws<BancoException.InvalidArgument> { parseClock("5s") }.message!!.contains("at least 10s")) { "the minimum said" }
        for (t in garbageStrings) mayRefuse("parseClock `${t.take(20)}`", BancoException.InvalidArgument::class.java) { parseClock(t) }
    }

    s.test("a chess match between two Match objects over loopback, then xiangqi") {
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val chess = MatchOffer(GameKind.CHESS, Color.RED, null, null)
        val host = Match.host("An", "127.0.0.1:0", false, boardGames(), chess, hostEvents)
        eq(Hosting(listOf(NearbyTransport.LAN), listOf()), host.hosting(), "a LAN host")
        // Asked for Bluetooth without a peripheral: the LAN alone, with the shell's reason.
        Match.hostNearby("An", "127.0.0.1:0", false, null, "Bluetooth is off", boardGames(), chess, QueueMatchListener("lan")).use { lan ->
            eq(listOf(TransportNotOpen(NearbyTransport.BLE, "Bluetooth is off")), lan.hosting()!!.notOpen)
            lan.leave()
        }
        val address = hostEvents.next<MatchEvent.Listening>().address
        eq(address, host.address())
        check(address.startsWith("127.0.0.1:")) { address }
        eq(listOf(address), host.state().reachable, "a host on one address is reached there")
        eq(MatchPhase.LISTENING, host.state().phase)
        eq(listOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI), host.state().offers)
        eq(null, host.code())
        throws<BancoException.Match> { host.tap(0u, 0u) }
        val guest = Match.join("Binh", address, guestEvents)
        try {
            eq("", guest.address())
            eq(listOf<String>(), guest.state().reachable, "a guest takes no guests")
            eq(null, guest.hosting(), "a guest hosts nothing")
            val hc = hostEvents.next<MatchEvent.VerifyCode>()
            val gc = guestEvents.next<MatchEvent.VerifyCode>()
            eq(hc.code, gc.code, "both phones show the same code")
            eq(6, hc.code.length)
            eq("Binh", hc.peerName)
            eq("An", gc.peerName)
            eq(hc.code, host.code())
            val verify = guest.state()
            eq(MatchPhase.VERIFY, verify.phase)
            eq(gc.code, verify.code)
            eq("An", verify.peerName)
            eq(setOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI), verify.peerGames.toSet(), "the host's games")
            throws<BancoException.Match> { host.playText("e4") }
            throws<BancoException.Match> { host.confirmCode("000000".takeIf { it != hc.code } ?: "999999") }
            host.confirmCode(hc.code)
            guest.confirmCode(gc.code)
            val proposed = guestEvents.next<MatchEvent.Proposed>()
            eq(MatchOffer(GameKind.CHESS, Color.BLACK, Rules.Chess(false), null), proposed.offer)
            eq(MatchPhase.PROPOSED, guest.state().phase)
            eq(proposed.offer, guest.state().proposal)
            // The accept names the proposal shown: another number accepts nothing.
            eq(proposed.id, guest.state().proposalId)
            throws<BancoException.Match> { guest.acceptOffer(proposed.id + 1uL) }
            eq(MatchPhase.PROPOSED, guest.state().phase)
            guest.acceptOffer(proposed.id)
            val hs = hostEvents.next<MatchEvent.Started>()
            eq(GameKind.CHESS to Color.RED, hs.game to hs.yourColor)
            eq(startFen(GameKind.CHESS), hs.fen)
            eq(Color.BLACK, guestEvents.next<MatchEvent.Started>().yourColor)
            eq(Color.RED, host.yourColor())
            eq(Color.BLACK, guest.yourColor())
            var h = host.state()
            var g = guest.state()
            eq(MatchPhase.PLAYING, h.phase)
            check(h.yourTurn && !g.yourTurn) { "White moves first" }
            check(!h.board!!.flipped && g.board!!.flipped) { "each side sees its pieces at the bottom" }
            eq(64, g.board!!.cells.size)
            eq("h1", g.board!!.cells.first().name, "Black's view: h1 at the top left")

            // Moves both ways: taps, a Move, SAN and UCI text. Out of turn is refused.
            val e = throws<BancoException.NotAvailable> { guest.playText("e5") }
            eq("it is not your turn", e.message, "as VsComputer in the computer's turn")
            eq(TapResult.Ignored, guest.tapSquare("e7"))
            throws<BancoException.IllegalMove> { host.playText("e2e5") }
            eq(TapResult.Selected(sq("e2", GameKind.CHESS)), host.tapSquare("e2"))
            host.clearSelection()
            check(host.state().board!!.cells.none { it.selected }) { "clearSelection" }
            guest.flip()
            check(!guest.state().board!!.flipped) { "flip turns this side's board" }
            check(!host.state().board!!.flipped)
            guest.flip()
            check(guest.state().board!!.flipped)
            eq(TapResult.Selected(sq("e2", GameKind.CHESS)), host.tapSquare("e2"))
            eq(TapResult.Moved(cmv("e2", "e4")), host.tapSquare("e4"))
            eq("e4", bothSee(hostEvents, guestEvents).text)
            guest.tapSquare("e7")
            guest.tapSquare("e5")
            bothSee(hostEvents, guestEvents)
            eq("Nf3", host.play(cmv("g1", "f3")).text)
            bothSee(hostEvents, guestEvents)
            guest.playText("b8c6")
            bothSee(hostEvents, guestEvents)
            g = guest.state()
            eq(listOf("e4", "e5", "Nf3", "Nc6"), g.moves)
            eq("Nc6", g.lastMove?.text)
            check(g.board!!.cell("c6").lastMove)

            // The guest asks to take back; the host declines, then allows.
            host.playText("Bb5")
            bothSee(hostEvents, guestEvents)
            guest.playText("a6")
            bothSee(hostEvents, guestEvents)
            guest.requestUndo()
            eq(5u, hostEvents.next<MatchEvent.UndoRequested>().toPly)
            eq(5u, host.state().undoRequest)
            host.replyUndo(false)
            guestEvents.next<MatchEvent.UndoDeclined>()
            check(guest.state().notice?.contains("declined") == true) { "${guest.state().notice}" }
            guest.clearNotice()
            eq(null, guest.state().notice)
            // One request a move: asking again before moving is refused, and changes nothing.
            throws<BancoException.Match> { guest.requestUndo() }
            eq(null, host.state().undoRequest)
            host.playText("Ba4")
            bothSee(hostEvents, guestEvents)
            guest.playText("b5")
            bothSee(hostEvents, guestEvents)
            guest.requestUndo()
            eq(7u, hostEvents.next<MatchEvent.UndoRequested>().toPly)
            host.replyUndo(true)
            eq(7u, guestEvents.next<MatchEvent.Undone>().toPly)
            eq(7u, hostEvents.next<MatchEvent.Undone>().toPly)
            eq(host.game().fen(), guest.game().fen())
            eq(7u, guest.game().status().ply)

            // A draw offer on one's own turn goes with the next move (FIDE 9.1.2.2), and is
            // declined; a claim the rules do not allow.
            eq(null, guest.state().claimableDraw)
            throws<BancoException> { guest.claimDraw() }.also { check(it !is BancoException.Internal) { "$it" } }
            guest.offerDraw()
            check(guest.state().drawOfferHeld)
            throws<BancoException.Match> { guest.offerDraw() }
            check(!host.state().drawOffered)
            guest.playText("Nf6")
            bothSee(hostEvents, guestEvents)
            hostEvents.next<MatchEvent.DrawOffered>()
            check(host.state().drawOffered)
            check(!guest.state().drawOfferHeld)
            host.replyDraw(false)
            guestEvents.next<MatchEvent.DrawDeclined>()

            // A few more moves, then White resigns.
            host.playText("Bxc6")
            bothSee(hostEvents, guestEvents)
            guest.playText("dxc6")
            bothSee(hostEvents, guestEvents)
            host.resign()
            val over = hostEvents.next<MatchEvent.GameOver>()
            eq(Outcome.Win(Color.BLACK, WinReason.RESIGNATION), over.outcome)
            eq("You lost: resignation", over.text)
            eq("You won: resignation", guestEvents.next<MatchEvent.GameOver>().text)
            h = host.state()
            g = guest.state()
            eq(MatchPhase.OVER, h.phase)
            eq("You lost: resignation", h.result)
            eq("You won: resignation", g.result)
            check(!h.yourTurn && !g.yourTurn)
            throws<BancoException.GameOver> { host.playText("a3") }
            // The match's copy of the game keeps the resignation: status, save, PGN.
            guest.game().use { gg ->
                eq(Outcome.Win(Color.BLACK, WinReason.RESIGNATION), gg.status().outcome)
                eq("0-1", gg.status().result)
                check(gg.toPgn(emptyList()).contains("[Result \"0-1\"]"))
            }

            // A new chess game from a set-up position: a promotion through the picker, mate.
            host.propose(MatchOffer(GameKind.CHESS, Color.RED, null, "k7/4P3/1K6/8/8/8/8/8 w - - 0 1"))
            val p2 = guestEvents.next<MatchEvent.Proposed>()
            eq("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", p2.offer.startFen)
            guest.acceptProposal()
            hostEvents.next<MatchEvent.Started>()
            guestEvents.next<MatchEvent.Started>()
            host.tapSquare("e7")
            val ask = host.tapSquare("e8")
            check(ask is TapResult.ChoosePromotion) { "$ask" }
            eq(TapResult.Moved(cmv("e7", "e8", PieceKind.QUEEN)), host.choosePromotion(PieceKind.QUEEN))
            val promoted = bothSee(hostEvents, guestEvents)
            eq("e8=Q#", promoted.text, "the new queen mates")
            eq(PieceKind.QUEEN, promoted.played.promotion)
            eq("You won: checkmate", hostEvents.next<MatchEvent.GameOver>().text)
            eq("You lost: checkmate", guestEvents.next<MatchEvent.GameOver>().text)
            eq(Outcome.Win(Color.RED, WinReason.CHECKMATE), guest.state().outcome)
            guest.game().use { gg ->
                eq(GameKind.CHESS, gg.kind())
                eq(Outcome.Win(Color.RED, WinReason.CHECKMATE), gg.status().outcome)
            }

            // Chess again: the knights dance until White may claim a threefold repetition.
            host.propose(chess)
            guestEvents.next<MatchEvent.Proposed>()
            guest.acceptProposal()
            hostEvents.next<MatchEvent.Started>()
            guestEvents.next<MatchEvent.Started>()
            for (i in 0 until 8) {
                val (side, text) = if (i % 2 == 0) host to listOf("Nf3", "Ng1")[i / 2 % 2] else guest to listOf("Nf6", "Ng8")[i / 2 % 2]
                side.playText(text)
                bothSee(hostEvents, guestEvents)
            }
            eq(DrawReason.ThreefoldRepetition, host.state().claimableDraw)
            eq(null, guest.state().claimableDraw, "only the side to move may claim")
            host.claimDraw()
            val drawn = hostEvents.next<MatchEvent.GameOver>()
            eq(Outcome.Draw(DrawReason.ThreefoldRepetition), drawn.outcome)
            eq(drawn.text, guestEvents.next<MatchEvent.GameOver>().text)
            check(drawn.text.startsWith("Draw: ")) { drawn.text }

            // Xiangqi, casual rules: the guest declines, then the host proposes again.
            val casual = (defaultRules(GameKind.XIANGQI) as Rules.Xiangqi).copy(repetition = RepetitionRule.CASUAL)
            val xq = MatchOffer(GameKind.XIANGQI, Color.BLACK, casual, null)
            host.propose(xq)
            val p3 = guestEvents.next<MatchEvent.Proposed>()
            eq(MatchOffer(GameKind.XIANGQI, Color.RED, casual, null), p3.offer)
            guest.declineProposal()
            hostEvents.next<MatchEvent.ProposalDeclined>()
            check(host.state().notice != null)
            host.clearNotice()
            host.propose(xq)
            guestEvents.next<MatchEvent.Proposed>()
            guest.acceptProposal()
            eq(GameKind.XIANGQI to Color.BLACK, hostEvents.next<MatchEvent.Started>().let { it.game to it.yourColor })
            guestEvents.next<MatchEvent.Started>()
            g = guest.state()
            eq(GameKind.XIANGQI, g.kind)
            eq(90, g.board!!.cells.size)
            check(g.yourTurn && !g.board!!.flipped)
            guest.playText("炮二平五")
            eq("炮二平五", bothSee(hostEvents, guestEvents).text)
            host.playText("h9g7")
            bothSee(hostEvents, guestEvents)
            guest.resign()
            eq("You won: resignation", hostEvents.next<MatchEvent.GameOver>().text)
            eq("You lost: resignation", guestEvents.next<MatchEvent.GameOver>().text)
        } finally {
            guest.leave()
            host.leave()
        }
        hostEvents.next<MatchEvent.Closed>()
        guestEvents.next<MatchEvent.Closed>()
        eq(MatchPhase.CLOSED, host.state().phase)
        // Events come on a Rust-owned thread, never on the caller's.
        check(Thread.currentThread().name !in hostEvents.threads) { "${hostEvents.threads}" }
        throws<BancoException.Match> { host.offerDraw() }
        host.destroy()
        guest.destroy()
    }

    s.test("stored trust: a remembered player skips the code after a restart") {
        val hostTrust = newTrust()
        val guestTrust = newTrust()
        eq(19, trustFingerprint(hostTrust).length)
        throws<BancoException.InvalidArgument> { trustFingerprint(byteArrayOf(1, 2, 3)) }
        fun pairOnce(h: ByteArray, g: ByteArray, expectCode: Boolean): Pair<ByteArray, ByteArray> {
            val he = QueueMatchListener("host")
            val ge = QueueMatchListener("guest")
            val host = Match.host("An", "127.0.0.1:0", false, listOf(), null, he, h)
            val guest = Match.join("Binh", he.next<MatchEvent.Listening>().address, ge, g)
            if (expectCode) {
                val code = he.next<MatchEvent.VerifyCode>().code
                host.confirmCode(code)
                guest.confirmCode(ge.next<MatchEvent.VerifyCode>().code)
            }
            he.next<MatchEvent.PeerVerified>()
            ge.next<MatchEvent.PeerVerified>()
            check(expectCode || he.seen.none { it is MatchEvent.VerifyCode }) { "asked again: ${he.seen}" }
            val stored = host.exportTrust() to guest.exportTrust()
            guest.leave()
            host.leave()
            guest.close()
            host.close()
            return stored
        }
        val (h, g) = pairOnce(hostTrust, guestTrust, true)
        check(!h.contentEquals(hostTrust)) { "the guest is remembered" }
        pairOnce(h, g, false)
    }

    s.test("match and lobby errors and garbage") {
        val l = QueueMatchListener("x")
        val chess = MatchOffer(GameKind.CHESS, Color.RED, null, null)
        for (addr in garbageStrings + listOf("999.1.1.1:1", "127.0.0.1:99999", "[::1", "0.0.0.0")) {
            refused("host at `${addr.take(20)}`", BancoException.InvalidArgument::class.java, BancoException.Network::class.java) {
                Match.host("An", addr, false, boardGames(), chess, l)
            }
        }
        for (name in listOf("", "   ")) {
            refused("host named `$name`", BancoException.InvalidArgument::class.java) {
                Match.host(name, "127.0.0.1:0", false, listOf(), null, l)
            }
            refused("join named `$name`", BancoException.InvalidArgument::class.java) { Match.join(name, "127.0.0.1:1", l) }
        }
        // A long name is cut as every peer's is, not refused (22 Chinese characters are 66 bytes).
        Match.host("漢".repeat(22), "127.0.0.1:0", false, listOf(), null, l).leave()
        // Rules of another game, or custom rules, cannot be proposed.
        for (bad in listOf(
            MatchOffer(GameKind.CHESS, Color.RED, defaultRules(GameKind.XIANGQI), null),
            MatchOffer(GameKind.XIANGQI, Color.RED, Rules.Xiangqi(RepetitionRule.ASIAN, 4u, 50u), null),
        )) {
            refused("proposal $bad", BancoException.InvalidArgument::class.java) {
                Match.host("An", "127.0.0.1:0", false, listOf(), bad, l)
            }
        }
        for (t in garbageStrings) {
            mayRefuse("join `${t.take(20)}`", BancoException.Network::class.java, BancoException.InvalidArgument::class.java) {
                Match.join("An", t, l).use { it.leave() }
            }
        }
        val nowhere = LobbyPeer("id", "Nobody", listOf(GameKind.XIANGQI), null, "", "h", 1u, listOf("not an address"))
        refused("joinPeer", BancoException.Network::class.java) { Match.joinPeer("An", nowhere, l) }
        // A match with nobody there: every game action is refused with Match errors.
        Match.host("An", "127.0.0.1:0", false, listOf(GameKind.XIANGQI), null, l).use { m ->
            val actions: List<Pair<String, () -> Unit>> = listOf(
                "tap" to { m.tap(0u, 0u) },
                "choosePromotion" to { m.choosePromotion(PieceKind.QUEEN) },
                "play" to { m.play(Move(0u, 1u, null)) },
                "playText" to { m.playText("h2e2") },
                "game" to { m.game() },
                "confirmCode" to { m.confirmCode("123456") },
                "acceptProposal" to { m.acceptProposal() },
                "declineProposal" to { m.declineProposal() },
                "requestUndo" to { m.requestUndo() },
                "replyUndo" to { m.replyUndo(true) },
                "offerDraw" to { m.offerDraw() },
                "replyDraw" to { m.replyDraw(false) },
                "claimDraw" to { m.claimDraw() },
                "resign" to { m.resign() },
                "propose" to { m.propose(chess) },
            )
            for ((what, call) in actions) refused(what, BancoException.Match::class.java) { call() }
            m.clearNotice()
            m.clearSelection()
            m.flip()
            eq(null, m.state().board)
            eq(null, m.yourColor())
            mayRefuse("rejectCode", BancoException.Match::class.java) { m.rejectCode() }
            m.leave()
            m.leave()
        }
        // The lobby on loopback: starts, browses, advertises, withdraws, stops.
        mayRefuse("lobby", BancoException.Network::class.java) {
            Lobby(listOf("lo")).use { lobby ->
                val found = LinkedBlockingQueue<String>()
                lobby.browse(object : LobbyListener {
                    override fun onPeerFound(peer: LobbyPeer) { found += peer.name }
                    override fun onPeerUpdated(peer: LobbyPeer) {}
                    override fun onPeerLost(id: String) {}
                    override fun onError(message: String) {}
                })
                mayRefuse("advertise", BancoException.Network::class.java) {
                    val id = lobby.advertise("Chi", 7368u)
                    lobby.withdraw(id)
                }
                // A name with nothing to show is refused as Match.host refuses it.
                refused("advertise a blank name", BancoException.InvalidArgument::class.java) { lobby.advertise(" \u200b", 7368u) }
                mayRefuse("withdraw garbage", BancoException.Network::class.java) { lobby.withdraw("nonsense") }
                lobby.stop()
                lobby.withdraw("x") // stop withdrew every advertisement: nothing to do
                // Browsing (or advertising) after stop starts mDNS again.
                mayRefuse("browse after stop", BancoException.Network::class.java) {
                    lobby.browse(object : LobbyListener {
                        override fun onPeerFound(peer: LobbyPeer) {}
                        override fun onPeerUpdated(peer: LobbyPeer) {}
                        override fun onPeerLost(id: String) {}
                        override fun onError(message: String) {}
                    })
                }
                lobby.stop()
                mayRefuse("advertise after stop", BancoException.Network::class.java) { lobby.advertise("Chi", 1u) }
                lobby.stop()
            }
        }
    }
}
