// The lobby list and LAN matches between two controllers over loopback in one process (no
// multicast: the host is "found" by feeding the lobby model the peer, with its real address):
// chess proposed by the host, xiangqi with offers, and a lost connection.
package org.banco.shell.tests

import org.banco.BancoException
import org.banco.Color
import org.banco.GameKind
import org.banco.LobbyPeer
import org.banco.NearbyPlayer
import org.banco.NearbyTransport
import org.banco.MatchPhase as Phase
import org.banco.PieceKind
import org.banco.RepetitionRule
import org.banco.Rules
import org.banco.TapResult
import org.banco.shell.LobbyModel
import org.banco.shell.MatchController
import org.banco.shell.MemoryStore
import org.banco.shell.MulticastGuard
import org.banco.shell.Settings
import org.banco.shell.Sound
import org.banco.shell.SoundPlayer
import org.banco.shell.trustKeeper
import org.banco.shell.cellNamed
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread

fun peer(id: String, name: String, address: String = "127.0.0.1:1", games: List<GameKind> = listOf(GameKind.XIANGQI, GameKind.CHESS)): LobbyPeer =
    LobbyPeer(id, name, games, 1u.toUShort(), "", "$name.local", address.substringAfterLast(':').toUShort(), listOf(address))

/** A player of the nearby list seen on the LAN only, as Rust's NearbyLobby reports it. */
fun lanPlayer(p: LobbyPeer): NearbyPlayer =
    NearbyPlayer("lan:${p.id}", p.name, p.games, p.protocolVersion, p.fingerprint, listOf(NearbyTransport.LAN), NearbyTransport.LAN, p, null)

/** The state of a match controller, read on its UI thread. */
fun TestUi.match(c: MatchController): MatchController.State = call { c.state.value }

/** Waits for the match state that satisfies [pred]. */
fun TestUi.awaitMatch(c: MatchController, what: String, seconds: Long = 30, pred: (org.banco.MatchState) -> Boolean): org.banco.MatchState =
    await(c.state, what, seconds) { s -> s.match?.let(pred) == true }.match!!

/** Taps the cell showing square [name] on the controller's board. */
fun TestUi.tap(c: MatchController, name: String): TapResult? = call {
    val cell = c.state.value.match?.board?.cellNamed(name) ?: throw AssertionError("no board or no square $name")
    c.tap(cell.column.toInt(), cell.row.toInt())
}

/** Two controllers paired over loopback (the guest found through the lobby model), the game accepted. */
class Pair2(hostSettings: Settings, val guestName: String = "Binh", val hostSounds: MutableList<Sound> = java.util.concurrent.CopyOnWriteArrayList(), val guestSounds: MutableList<Sound> = java.util.concurrent.CopyOnWriteArrayList()) : AutoCloseable {
    val hostUi = TestUi()
    val guestUi = TestUi()
    val host: MatchController = hostUi.call {
        MatchController.host(hostUi, hostSettings, "127.0.0.1:0", advertise = false, sound = SoundPlayer { hostSounds += it })
    }
    lateinit var guest: MatchController

    fun connect(): Pair<org.banco.MatchState, org.banco.MatchState> {
        val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
        check(address.startsWith("127.0.0.1:")) { address }
        val lobby = LobbyModel(guestUi)
        lobby.onPlayerFound(lanPlayer(peer("An@host", "An", address)))
        val found = guestUi.await(lobby.state, "the host in the list") { it.players.isNotEmpty() }.players.single()
        eq(listOf(GameKind.XIANGQI, GameKind.CHESS), found.games, "the lobby shows the host's games")
        guest = guestUi.call { lobby.join(found, Settings(playerName = guestName), SoundPlayer { guestSounds += it }) }
        val hv = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }
        val gv = guestUi.awaitMatch(guest, "guest code") { it.phase == Phase.VERIFY }
        return hv to gv
    }

    override fun close() {
        if (::guest.isInitialized) guestUi.call { guest.leave() }
        hostUi.call { host.leave() }
        hostUi.shutdown()
        guestUi.shutdown()
    }
}


/**
 * A TCP proxy between guest and host whose connections can be cut (a phone leaving Wi-Fi
 * range): while cut it refuses new connections too, until [restore] (back in range).
 */
class CutProxy(private val target: InetSocketAddress) : AutoCloseable {
    private val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
    private val open = CopyOnWriteArrayList<Socket>()
    @Volatile private var refusing = false
    val address: String get() = "127.0.0.1:${server.localPort}"

    init {
        thread(isDaemon = true, name = "proxy-accept") {
            while (!server.isClosed) {
                val down = runCatching { server.accept() }.getOrNull() ?: break
                if (refusing) {
                    runCatching { down.close() }
                    continue
                }
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

    /** Drops every connection (both ends see the link go down) and refuses new ones. */
    fun cut() {
        refusing = true
        for (s in open) runCatching { s.close() }
        open.clear()
    }

    /** Accepts connections again. */
    fun restore() {
        refusing = false
    }

    override fun close() {
        server.close()
        cut()
    }
}

fun lobbyMatchTests(s: Suite) {
    s.test("lobby: peers with their games found, updated and lost from Rust threads; discovery errors") {
        val ui = TestUi()
        val held = AtomicInteger()
        val guard = object : MulticastGuard {
            override fun acquire() { held.incrementAndGet() }
            override fun release() { held.decrementAndGet() }
        }
        val lobby = LobbyModel(ui, guard)
        val threads = (1..3).map { i ->
            thread { lobby.onPlayerFound(lanPlayer(peer("id$i", listOf("Chi", "an", "Binh")[i - 1], games = listOf(GameKind.XIANGQI)))) }
        }
        threads.forEach { it.join() }
        var st = ui.await(lobby.state, "three peers") { it.players.size == 3 }
        eq(listOf("an", "Binh", "Chi"), st.players.map { it.name }, "sorted by name")
        lobby.onPlayerUpdated(lanPlayer(peer("id1", "Chi", "127.0.0.1:7368")))
        lobby.onPlayerFound(lanPlayer(peer("id2", "An")))
        st = ui.await(lobby.state, "an update") { p -> p.players.any { it.name == "An" } }
        eq(3, st.players.size, "updates replace, never duplicate")
        val chi = st.players.first { it.key == "lan:id1" }
        eq(listOf("127.0.0.1:7368"), chi.lan?.addresses)
        eq(listOf(GameKind.XIANGQI, GameKind.CHESS), chi.games, "each player's games")
        eq("Xiangqi, Chess", LobbyModel.gamesText(chi))
        eq("LAN", LobbyModel.transportsText(chi))
        lobby.onPlayerLost("lan:id3")
        lobby.onPlayerLost("nobody")
        st = ui.await(lobby.state, "a player lost") { it.players.size == 2 }
        eq(listOf("An", "Chi"), st.players.map { it.name })
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

    s.test("a chess match between two controllers over 127.0.0.1: host proposes chess, taps both ways, mate, results") {
        Pair2(Settings(game = GameKind.CHESS, color = Color.RED, playerName = "An")).use { p ->
            val (hv, gv) = p.connect()
            eq(hv.code, gv.code, "both phones show the same code")
            eq(6, hv.code?.length)
            eq("Binh" to "An", hv.peerName to gv.peerName)
            eq(setOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI), gv.peerGames.toSet())
            p.hostUi.call { p.host.confirmCode(hv.code!!) }
            p.guestUi.call { p.guest.confirmCode(gv.code!!) }
            val proposed = p.guestUi.awaitMatch(p.guest, "the proposal") { it.phase == Phase.PROPOSED }
            eq(GameKind.CHESS to Color.BLACK, proposed.proposal?.game to proposed.proposal?.yourColor)
            p.guestUi.call { p.guest.acceptOffer(p.guest.state.value.match!!.proposalId!!) }
            var hs = p.hostUi.awaitMatch(p.host, "host playing") { it.phase == Phase.PLAYING }
            var gs = p.guestUi.awaitMatch(p.guest, "guest playing") { it.phase == Phase.PLAYING }
            eq(GameKind.CHESS, hs.kind)
            check(hs.yourTurn && !gs.yourTurn && gs.board!!.flipped && !hs.board!!.flipped) { "$hs / $gs" }
            eq(64, gs.board!!.cells.size)
            p.guestUi.call { p.guest.flip() }
            check(!p.guestUi.match(p.guest).match!!.board!!.flipped) { "flipped by the player" }
            p.guestUi.call { p.guest.flip() }

            // A tap out of turn does nothing; a move out of turn is refused with Rust's words.
            eq(TapResult.Ignored, p.guestUi.tap(p.guest, "e7"))
            p.guestUi.call { p.guest.play(org.banco.Move(52u, 36u, null)) }
            eq("it is not your turn", p.guestUi.match(p.guest).notice)
            p.guestUi.call { p.guest.clearNotice() }
            eq(null, p.guestUi.match(p.guest).notice)

            // Fool's mate, every move by taps.
            val moves = listOf("f2" to "f3", "e7" to "e5", "g2" to "g4", "d8" to "h4")
            for ((i, m) in moves.withIndex()) {
                val (ui, c) = if (i % 2 == 0) p.hostUi to p.host else p.guestUi to p.guest
                ui.awaitMatch(c, "turn ${i + 1}") { it.yourTurn }
                eq(TapResult.Selected(org.banco.parseSquare(GameKind.CHESS, m.first)), ui.tap(c, m.first))
                check(ui.tap(c, m.second) is TapResult.Moved) { "move ${i + 1}" }
                p.hostUi.awaitMatch(p.host, "host sees move ${i + 1}") { it.moves.size == i + 1 }
                p.guestUi.awaitMatch(p.guest, "guest sees move ${i + 1}") { it.moves.size == i + 1 }
            }
            hs = p.hostUi.awaitMatch(p.host, "host: over") { it.phase == Phase.OVER }
            gs = p.guestUi.awaitMatch(p.guest, "guest: over") { it.phase == Phase.OVER }
            eq(listOf("f3", "e5", "g4", "Qh4#"), hs.moves)
            eq("You lost: checkmate", hs.result)
            eq("You won: checkmate", gs.result)
            check(!hs.yourTurn && !gs.yourTurn)
            check(hs.board!!.cellNamed("e1")!!.check) { "the mated king is marked" }
            p.hostUi.await(p.host.state, "the end's sound") { p.hostSounds.lastOrNull() == Sound.GAME_OVER }
            check(Sound.CHECK in p.guestSounds) { "${p.guestSounds}" }

            // Another game: the host proposes a promotion position; the queen is chosen in the picker.
            p.hostUi.call { p.host.propose(org.banco.MatchOffer(GameKind.CHESS, Color.RED, null, "k7/4P3/1K6/8/8/8/8/8 w - - 0 1")) }
            p.guestUi.awaitMatch(p.guest, "second proposal") { it.phase == Phase.PROPOSED }
            p.guestUi.call { p.guest.acceptOffer(p.guest.state.value.match!!.proposalId!!) }
            p.hostUi.awaitMatch(p.host, "second game") { it.phase == Phase.PLAYING && it.yourTurn }
            p.hostUi.tap(p.host, "e7")
            check(p.hostUi.tap(p.host, "e8") is TapResult.ChoosePromotion)
            check(p.hostUi.match(p.host).promotion != null) { "the picker is shown" }
            p.hostUi.call { p.host.cancelPromotion() }
            eq(null, p.hostUi.match(p.host).promotion, "dismissed")
            check(p.hostUi.match(p.host).match!!.board!!.cells.none { it.selected }) { "the pawn deselected" }
            eq(0, p.hostUi.match(p.host).match!!.moves.size)
            p.hostUi.tap(p.host, "e7")
            check(p.hostUi.tap(p.host, "e8") is TapResult.ChoosePromotion)
            p.hostUi.call { p.host.choosePromotion(PieceKind.QUEEN) }
            gs = p.guestUi.awaitMatch(p.guest, "mated by the new queen") { it.phase == Phase.OVER }
            eq("e8=Q#", gs.moves.single())
            eq("You lost: checkmate", gs.result)
            eq("You won: checkmate", p.hostUi.awaitMatch(p.host, "won") { it.phase == Phase.OVER }.result)
            eq(null, p.hostUi.match(p.host).promotion)
        }
    }

    s.test("a xiangqi match over loopback: proposal with rules, taps, undo request, draw offer, resign") {
        Pair2(Settings(playerName = "An", color = Color.RED, rules = "casual")).use { p ->
            val (hv, gv) = p.connect()
            p.hostUi.call { p.host.confirmCode(hv.code!!) }
            p.guestUi.call { p.guest.confirmCode(gv.code!!) }
            val proposed = p.guestUi.awaitMatch(p.guest, "proposal") { it.phase == Phase.PROPOSED }
            eq(Color.BLACK, proposed.proposal?.yourColor)
            eq(RepetitionRule.CASUAL, (proposed.proposal?.rules as Rules.Xiangqi).repetition)
            eq("You play Black\nRules: Casual (only perpetual check loses)\nClock: untimed", proposed.offeredTerms,
                "the accept prompt's words, the rules included (Rust's, as on iOS)")
            p.guestUi.call { p.guest.acceptOffer(p.guest.state.value.match!!.proposalId!!) }
            var hs = p.hostUi.awaitMatch(p.host, "host playing") { it.phase == Phase.PLAYING }
            var gs = p.guestUi.awaitMatch(p.guest, "guest playing") { it.phase == Phase.PLAYING }
            check(hs.yourTurn && !gs.yourTurn && gs.board!!.flipped && !hs.board!!.flipped) { "$hs / $gs" }

            p.hostUi.tap(p.host, "h2")
            p.hostUi.tap(p.host, "e2")
            gs = p.guestUi.awaitMatch(p.guest, "the host's move") { it.moves.size == 1 }
            eq("炮二平五", gs.moves.single())
            check(gs.board!!.cellNamed("e2")!!.lastMove && gs.yourTurn)
            p.guestUi.tap(p.guest, "h9")
            p.guestUi.tap(p.guest, "g7")
            hs = p.hostUi.awaitMatch(p.host, "the guest's move") { it.moves.size == 2 }
            check(hs.yourTurn)

            // The guest asks to take back; the host agrees.
            p.guestUi.call { p.guest.requestUndo() }
            p.hostUi.awaitMatch(p.host, "undo request") { it.undoRequest != null }
            p.hostUi.call { p.host.replyUndo(true) }
            gs = p.guestUi.awaitMatch(p.guest, "undone") { it.moves.size == 1 }
            hs = p.hostUi.awaitMatch(p.host, "undone") { it.moves.size == 1 && it.undoRequest == null }
            check(gs.yourTurn && !hs.yourTurn)

            // A draw offer, declined.
            p.hostUi.call { p.host.offerDraw() }
            p.guestUi.awaitMatch(p.guest, "draw offer") { it.drawOffered }
            p.guestUi.call { p.guest.replyDraw(false) }
            val notice = p.hostUi.await(p.host.state, "draw declined") { it.notice != null }.notice!!
            check(notice.contains("declined")) { notice }
            p.hostUi.call { p.host.clearNotice() }

            p.guestUi.call { p.guest.resign() }
            hs = p.hostUi.awaitMatch(p.host, "game over") { it.phase == Phase.OVER }
            gs = p.guestUi.awaitMatch(p.guest, "game over") { it.phase == Phase.OVER }
            eq("You won: resignation", hs.result)
            eq("You lost: resignation", gs.result)
            check(!hs.yourTurn && !gs.yourTurn)
        }
    }

    s.test("the device's key moves once out of the general store; kept bytes that cannot be read are set aside for a fresh identity") {
        // Rust's TrustKeeper over this shell's stores (its keys, as this shell always kept them).
        val trustKey = "match.trust"
        val setAside = "match.trust.damaged"
        val general = MemoryStore()
        val own = MemoryStore()
        val bytes = org.banco.newTrust()
        val text = java.util.Base64.getEncoder().encodeToString(bytes)
        general.putString(trustKey, text)
        general.putString("other", "stays")
        val keeper = trustKeeper(own, legacy = general)
        eq(org.banco.trustFingerprint(bytes), org.banco.trustFingerprint(keeper.load()!!), "the same identity")
        eq(null, general.getString(trustKey), "gone from the backed-up store")
        eq("stays", general.getString("other"))
        eq(text, own.getString(trustKey))
        // Later runs read their own store; a newer confirmed code is kept there.
        val later = trustKeeper(own, legacy = general)
        check(later.load()!!.contentEquals(bytes))
        val next = org.banco.newTrust()
        later.save(next)
        check(trustKeeper(own, legacy = general).load()!!.contentEquals(next))
        eq(null, general.getString(trustKey))
        // Damaged text: set aside (never deleted), a fresh identity, and the player told once.
        own.putString(trustKey, "%%% not base64")
        val damaged = trustKeeper(own)
        eq(null, damaged.load(), "a fresh identity instead of a dead end")
        eq("%%% not base64", own.getString(setAside))
        eq(null, own.getString(trustKey))
        check(damaged.takeNotice()!!.contains("set aside"))
        eq(null, damaged.takeNotice(), "said once")
        // Base64 of bytes Rust refuses is damaged too; the first bytes set aside stay.
        throws<org.banco.BancoException.InvalidArgument> { org.banco.trustFingerprint(byteArrayOf(1, 2, 3)) }
        own.putString(trustKey, java.util.Base64.getEncoder().encodeToString(byteArrayOf(1, 2, 3)))
        eq(null, damaged.load())
        eq("%%% not base64", own.getString(setAside))
        check(damaged.takeNotice() != null)
        // A good identity is read as it is, with nothing to say.
        own.putString(trustKey, text)
        check(damaged.load()!!.contentEquals(bytes))
        eq(null, damaged.takeNotice())
    }

    s.test("a remembered player skips the code in the next match (trust kept in each store); another key is a warning to close") {
        val hostTrust = trustKeeper(MemoryStore())
        val guestTrust = trustKeeper(MemoryStore())
        for (round in 1..2) {
            val hostUi = TestUi()
            val guestUi = TestUi()
            val host = hostUi.call {
                MatchController.host(hostUi, Settings(playerName = "An"), "127.0.0.1:0", advertise = false,
                    trust = hostTrust.load(), onTrust = hostTrust::save)
            }
            val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
            val guest = guestUi.call { MatchController.join(guestUi, "Binh", address, trust = guestTrust.load(), onTrust = guestTrust::save) }
            if (round == 1) {
                val hv = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }
                val gv = guestUi.awaitMatch(guest, "guest code") { it.phase == Phase.VERIFY }
                hostUi.call { host.confirmCode(hv.code!!) }
                guestUi.call { guest.confirmCode(gv.code!!) }
            }
            // In round 2 nobody confirms a code: the proposal can only come if both remembered.
            guestUi.awaitMatch(guest, "the proposal, round $round") { it.phase == Phase.PROPOSED }
            // Each side stores its trust when its UI thread handles PeerVerified, which may
            // come just after the guest sees the proposal (the host's event is on its way).
            val deadline = System.nanoTime() + 30_000_000_000
            while (hostUi.call { hostTrust.load() } == null || guestUi.call { guestTrust.load() } == null) {
                check(System.nanoTime() < deadline) { "both kept their trust" }
                Thread.sleep(10)
            }
            guestUi.call { guest.leave() }
            hostUi.call { host.leave() }
            hostUi.shutdown()
            guestUi.shutdown()
        }
        // "Binh" comes back with another key (a reinstall, or someone impersonating them): the
        // host's warning, in Rust's words, waits in State.keyWarning for a dialog the player
        // closes; it is not the passing notice (a toast on top of the pairing question).
        val hostUi = TestUi()
        val guestUi = TestUi()
        val host = hostUi.call {
            MatchController.host(hostUi, Settings(playerName = "An"), "127.0.0.1:0", advertise = false,
                trust = hostTrust.load(), onTrust = hostTrust::save)
        }
        try {
            val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
            val guest = guestUi.call { MatchController.join(guestUi, "Binh", address, trust = trustKeeper(MemoryStore()).load()) }
            try {
                hostUi.awaitMatch(host, "the code compared again") { it.phase == Phase.VERIFY }
                val warned = hostUi.await(host.state, "the warning") { it.keyWarning != null }
                check(warned.keyWarning!!.contains("Binh") && warned.keyWarning!!.contains("different key")) { "${warned.keyWarning}" }
                eq(null, warned.notice, "not a passing notice")
                hostUi.call { host.clearKeyWarning() }
                eq(null, hostUi.call { host.state.value.keyWarning })
            } finally {
                guestUi.call { guest.leave() }
            }
        } finally {
            hostUi.call { host.leave() }
            hostUi.shutdown()
            guestUi.shutdown()
        }
    }

    s.test("a match survives a lost connection: banner while down, resumed, play goes on") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        val host = hostUi.call { MatchController.host(hostUi, Settings(playerName = "An"), "127.0.0.1:0", advertise = false) }
        val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
        val proxy = CutProxy(InetSocketAddress("127.0.0.1", address.substringAfterLast(':').toInt()))
        val g = guestUi.call { MatchController.join(guestUi, "Binh", proxy.address) }
        try {
            val hc = hostUi.awaitMatch(host, "code") { it.phase == Phase.VERIFY }.code!!
            val gc = guestUi.awaitMatch(g, "code") { it.phase == Phase.VERIFY }.code!!
            hostUi.call { host.confirmCode(hc) }
            guestUi.call { g.confirmCode(gc) }
            guestUi.awaitMatch(g, "proposal") { it.phase == Phase.PROPOSED }
            guestUi.call { g.acceptOffer(g.state.value.match!!.proposalId!!) }
            hostUi.awaitMatch(host, "playing") { it.phase == Phase.PLAYING }
            hostUi.tap(host, "b2")
            hostUi.tap(host, "e2")
            guestUi.awaitMatch(g, "first move") { it.moves.size == 1 }

            // Every state each side goes through (the banner may be up only briefly).
            val guestStates = java.util.concurrent.CopyOnWriteArrayList<MatchController.State>()
            val hostStates = java.util.concurrent.CopyOnWriteArrayList<MatchController.State>()
            guestUi.call { g.state.observe { guestStates += it } }
            hostUi.call { host.state.observe { hostStates += it } }
            proxy.cut()
            val deadline = System.nanoTime() + 30_000_000_000
            while (guestStates.none { it.match?.banner != null } && System.nanoTime() < deadline) Thread.sleep(5)
            val down = guestStates.firstOrNull { it.match?.banner != null } ?: throw AssertionError("no banner on the guest")
            check(!down.match!!.yourTurn) { "no moves while the connection is down" }
            // Back in range: the guest redials through the proxy; the session resumes without a new code.
            proxy.restore()
            // Each side's (phase, banner) history, shown if a side does not resume.
            fun story(states: List<MatchController.State>) =
                states.map { "${it.phase}/${it.match?.banner}" }.fold(listOf<String>()) { l, x -> if (l.lastOrNull() == x) l else l + x }
            try {
                guestUi.await(g.state, "resumed", seconds = 60) { it.match?.banner == null }
                hostUi.await(host.state, "resumed", seconds = 60) { it.match?.banner == null }
            } catch (e: AssertionError) {
                throw AssertionError("${e.message!!.substringBefore("; last state")}; host: ${story(hostStates)}; guest: ${story(guestStates)}")
            }
            val gs = guestUi.awaitMatch(g, "the guest's turn again", seconds = 60) { it.yourTurn }
            eq(Phase.PLAYING, gs.phase)
            guestUi.tap(g, "b9")
            guestUi.tap(g, "c7")
            val hs = hostUi.awaitMatch(host, "a move after resuming") { it.moves.size == 2 }
            check(hs.yourTurn)
            println("  host banners: ${hostStates.mapNotNull { it.match?.banner }.distinct()}; guest: ${guestStates.mapNotNull { it.match?.banner }.distinct()}")
        } finally {
            guestUi.call { g.leave() }
            hostUi.call { host.leave() }
            proxy.close()
        }
        eq(Phase.CLOSED, hostUi.match(host).phase)
        check(hostUi.match(host).match?.closedReason != null) { "a reason to show" }
        hostUi.call { host.confirmCode("123456") } // after leaving: nothing happens, nothing throws
        hostUi.shutdown()
        guestUi.shutdown()
    }
}
