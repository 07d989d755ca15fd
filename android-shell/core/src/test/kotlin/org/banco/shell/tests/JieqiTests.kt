// Jieqi in the shell: a game against the computer through GameController (face-down cells
// described as backs, never as a glyph; both pools beside the board, next to their own side,
// shrinking with every reveal) and a jieqi match between two controllers over loopback.
package org.banco.shell.tests

import org.banco.BoardView
import org.banco.Color
import org.banco.GameKind
import org.banco.MatchPhase as Phase
import org.banco.TapResult
import org.banco.shell.PieceFace
import org.banco.shell.PoolShelves
import org.banco.shell.Settings
import org.banco.shell.cellNamed
import org.banco.shell.faceAt
import org.banco.shell.poolShelves

/** The faces of a board's pieces that are backs. */
fun BoardView.backs(): List<PieceFace.Back> = cells.mapNotNull { faceAt(it) as? PieceFace.Back }

/** A board's pools, which a jieqi board must have. */
fun BoardView.shelves(): PoolShelves = poolShelves() ?: throw AssertionError("no pools beside a ${kind} board")

fun jieqiTests(s: Suite) {
    s.test("jieqi vs the computer: face-down pieces drawn as backs, pools beside the board shrink with each reveal") {
        GameFixture(movetimeMs = 20, chanceSeed = 11).use { f ->
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.JIEQI, level = 1, color = Color.RED)) })
            var st = f.awaitTurn(0)
            eq(GameKind.JIEQI, st.kind)
            val start = st.board
            eq(30, start.backs().size)
            eq(15, start.backs().count { it.color == Color.RED })
            eq(PieceFace.Back(Color.RED), start.faceAt(start.cellNamed("h2")!!), "a face-down cannon-square piece")
            val king = start.faceAt(start.cellNamed("e0")!!)
            check(king is PieceFace.Front && king.onDisc && king.color == Color.RED && king.glyph.isNotEmpty()) { "$king" }
            check(start.cells.none { c -> c.piece?.faceDown == true && start.faceAt(c) is PieceFace.Front }) { "no face-down glyph" }

            // Both pools beside the board, each next to its side: Red (the player) below.
            var shelves = start.shelves()
            eq(Color.BLACK to Color.RED, shelves.top.color to shelves.bottom.color)
            eq(15 to 15, shelves.bottom.total to shelves.bottom.faceDown)
            eq("Red: 15 hidden", shelves.bottom.title)
            eq(mapOf("rook" to 2, "advisor" to 2, "elephant" to 2, "horse" to 2, "cannon" to 2, "pawn" to 5),
                shelves.bottom.items.associate { it.name to it.count })
            check(shelves.bottom.items.all { it.face.color == Color.RED && it.face.glyph.isNotEmpty() }) { "${shelves.bottom}" }
            check(shelves.bottom.text.startsWith("Red: 15 hidden  ") && "×5" in shelves.bottom.text) { shelves.bottom.text }
            eq(15, shelves.top.items.sumOf { it.count })

            // The face-down piece on h2 moves as a cannon and is revealed on e2.
            val said = java.util.concurrent.CopyOnWriteArrayList<String>()
            f.ui.call { f.c.state.observe { x -> x.announcement?.let { said += it } } }
            eq(TapResult.Selected(org.banco.parseSquare(GameKind.JIEQI, "h2")), f.tap("h2"))
            check(f.tap("e2") is TapResult.Moved) { "h2-e2" }
            st = f.awaitTurn(2)
            val revealed = st.board.faceAt(st.board.cellNamed("e2")!!)
            check(revealed is PieceFace.Front && revealed.color == Color.RED) { "the revealed piece shows its front: $revealed" }
            val kind = st.board.cellNamed("e2")!!.piece!!.name
            // The reveal was announced in Rust's words ("cannon h2 revealed: …").
            check(said.any { it.startsWith("cannon h2 revealed: ") }) { "announcements: $said" }
            shelves = st.board.shelves()
            // The computer's reply (level 1 in 20 ms: which move depends on the time it had)
            // shrinks Black's pool only if it turned a piece over.
            val reply = st.lastMove ?: throw AssertionError("the computer's reply: $st")
            eq(Color.BLACK, reply.by, "the last move is the computer's")
            eq(14, shelves.bottom.total, "Red's reveal left Red's pool")
            eq(if (reply.revealed != null) 14 else 15, shelves.top.total, "Black's pool after its reply ${reply.coordinate} (revealed ${reply.revealed})")
            eq(start.shelves().bottom.items.single { it.name == kind }.count - 1,
                shelves.bottom.items.singleOrNull { it.name == kind }?.count ?: 0, "the revealed $kind left Red's pool")
            eq(shelves.top.faceDown + shelves.bottom.faceDown, st.board.backs().size, "every face-down piece is a back")

            // On for a few turns: pools never grow, backs always match the pools' counts.
            var before = shelves
            repeat(6) { i ->
                if (st.outcome != null) return@repeat
                f.tapScripted("-", "-") // no such move: the first legal one
                st = f.awaitTurn(st.moves.size + 2)
                val now = st.board.shelves()
                check(now.bottom.total <= before.bottom.total && now.top.total <= before.top.total) { "turn $i: $before -> $now" }
                eq(now.top.faceDown + now.bottom.faceDown, st.board.backs().size)
                before = now
            }
        }
    }

    s.test("jieqi vs the computer as Black: the board and the pools turn round") {
        GameFixture(movetimeMs = 20, chanceSeed = 5).use { f ->
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.JIEQI, level = 1, color = Color.BLACK)) })
            val st = f.awaitTurn(1)
            check(st.board.flipped)
            val shelves = st.board.shelves()
            eq(Color.RED to Color.BLACK, shelves.top.color to shelves.bottom.color, "the player's own pool below")
            val opened = if (st.lastMove?.revealed != null) 1 else 0
            eq(15 - opened to 15, shelves.top.total to shelves.bottom.total, "the computer's opening reveal, if any")
            eq("Black: 15 hidden", shelves.bottom.title)
        }
    }

    s.test("a jieqi match between two controllers over 127.0.0.1: backs and pools on both phones, reveals alike") {
        Pair2(Settings(game = GameKind.JIEQI, color = Color.RED, playerName = "An")).use { p ->
            val (hv, gv) = p.connect()
            p.hostUi.call { p.host.confirmCode(hv.code!!) }
            p.guestUi.call { p.guest.confirmCode(gv.code!!) }
            val proposed = p.guestUi.awaitMatch(p.guest, "the proposal") { it.phase == Phase.PROPOSED }
            eq(GameKind.JIEQI, proposed.proposal?.game)
            p.guestUi.call { p.guest.acceptOffer(p.guest.state.value.match!!.proposalId!!) }
            val hs = p.hostUi.awaitMatch(p.host, "host playing") { it.phase == Phase.PLAYING && it.yourTurn }
            val gs = p.guestUi.awaitMatch(p.guest, "guest playing") { it.phase == Phase.PLAYING }
            eq(30 to 30, hs.board!!.backs().size to gs.board!!.backs().size)
            eq(Color.RED, hs.board!!.shelves().bottom.color)
            eq(Color.BLACK, gs.board!!.shelves().bottom.color, "each player's own pool below")
            for ((i, m) in listOf("h2" to "e2", "h9" to "g7").withIndex()) {
                val (ui, c) = if (i % 2 == 0) p.hostUi to p.host else p.guestUi to p.guest
                ui.awaitMatch(c, "turn ${i + 1}") { it.yourTurn }
                ui.tap(c, m.first)
                check(ui.tap(c, m.second) is TapResult.Moved) { "move ${i + 1}" }
                val h = p.hostUi.awaitMatch(p.host, "host sees reveal ${i + 1}") { it.board!!.backs().size == 29 - i }
                val g = p.guestUi.awaitMatch(p.guest, "guest sees reveal ${i + 1}") { it.board!!.backs().size == 29 - i }
                val (to, hc, gc) = Triple(m.second, h.board!!.cellNamed(m.second)!!, g.board!!.cellNamed(m.second)!!)
                eq(hc.piece, gc.piece, "both phones show the same piece on $to")
                check(h.board!!.faceAt(hc) is PieceFace.Front) { "revealed on $to" }
                // Both phones announce it.
                for ((u, mc) in listOf(p.hostUi to p.host, p.guestUi to p.guest)) {
                    val said = u.await(mc.state, "the reveal on $to announced") { it.announcement?.contains("revealed") == true }.announcement
                    check(said!!.contains("${m.first} revealed")) { said }
                }
            }
            val h = p.hostUi.awaitMatch(p.host, "host: both revealed") { it.board!!.shelves().top.total == 14 }
            val g = p.guestUi.awaitMatch(p.guest, "guest: both revealed") { it.board!!.shelves().top.total == 14 }
            eq(14 to 14, h.board!!.shelves().bottom.total to g.board!!.shelves().bottom.total)
            eq(h.board!!.shelves().bottom.items, g.board!!.shelves().top.items, "Red's pool alike on both phones")
        }
    }
}
