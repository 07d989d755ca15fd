// Jieqi through the boundary: a game against the computer (face-down cells, pools, a reveal
// drawn on the device and announced, save/resume replaying it) and a jieqi match between
// two Match objects over loopback, every reveal drawn fairly by both and announced alike.
package org.banco.tests

import org.banco.*

fun jieqiTests(s: Suite) {
    s.test("a jieqi Game for two players on one device: each reveal comes with its step") {
        Game.withChanceSeed(GameKind.JIEQI, null, 7uL).use { g ->
            val start = g.fen()
            val played = g.play(Move(0u, 9u, null)) // a0a1: the face-down rook steps up
            val revealed = played.revealed!!
            check(!revealed.faceDown) { "$revealed" }
            eq("rook a0 revealed: ${revealed.name}", played.announcement)
            eq(revealed, g.pieceAt(9u))
            val status = g.status()
            eq(Color.BLACK, status.sideToMove)
            eq(null, status.outcome)
            val moves = g.legalMoves()
            check(moves.size > 40) { "${moves.size} moves for Black" }
            g.play(moves[0])
            eq(2, g.history().size)
            eq(revealed, g.history()[0].revealed)
            Game.load(g.save()).use { back ->
                eq(g.fen(), back.fen())
                check(back.legalMoves().isNotEmpty()) { "a loaded game goes on" }
                // The pieces still face down turn up as dealt: save and load cannot draw again.
                g.copy().use { same ->
                    val dealt = same.playText("i0i1", null).revealed
                    check(dealt != null) { "i0i1 turns a piece over" }
                    eq(dealt, back.playText("i0i1", null).revealed)
                }
            }
            // Undo takes the reveal back with its step; the same step turns up the same piece.
            g.undo()
            eq(Move(0u, 9u, null), g.undo())
            eq(start, g.fen())
            eq(revealed, g.play(Move(0u, 9u, null)).revealed)
        }
        Game(GameKind.JIEQI).use { g ->
            g.playText("a0a1", null)
            check(g.legalMoves().isNotEmpty()) { "not stuck after a reveal drawn from the system" }
        }
    }

    s.test("jieqi vs the computer: face-down cells, pools, reveals, save and resume") {
        val l = QueueVsListener()
        val settings = VsSettings(GameKind.JIEQI, Color.RED, 1u, null, 50uL, null, 7uL)
        val vs = VsComputer(settings, l)
        try {
            val first = l.await("the player's turn") { it.yourTurn }
            eq(30, first.board.cells.count { it.piece?.faceDown == true })
            val h2 = first.board.cell("h2").piece!!
            check(h2.faceDown && h2.color == Color.RED && h2.letter == "X") { "$h2" }
            eq(2, first.board.pools.size)
            eq(15u, first.board.pools[0].total)
            // Placed by Rust beside the board: the player (Red, not flipped) below.
            val sides = first.board.poolSides!!
            eq(listOf(Color.BLACK, Color.RED), listOf(sides.top.color, sides.bottom.color))
            eq(first.board.pools[0], sides.bottom)
            val played = vs.playText("h2e2")
            val revealed = played.revealed!!
            check(!revealed.faceDown)
            eq("cannon h2 revealed: ${revealed.name}", played.announcement)
            val answered = l.await("the computer's answer") { it.moves.size == 2 && it.yourTurn }
            eq(14u, answered.board.pools[0].total)
            // The computer's reply (level 1 in 50 ms: which move depends on the time it had)
            // shrinks its pool, and is announced, exactly when it turns a piece over.
            val reply = answered.lastMove ?: throw AssertionError("the computer's reply: $answered")
            eq(Color.BLACK, reply.by)
            if (reply.revealed != null) {
                eq(14u, answered.board.pools[1].total, "the computer's step revealed a piece")
                check(reply.announcement?.contains(" revealed: ") == true) { "$reply" }
            } else {
                eq(15u, answered.board.pools[1].total, "the computer's move ${reply.coordinate} revealed nothing")
                eq(null, reply.announcement)
            }
            eq(revealed.kind, answered.board.cell("e2").piece?.kind)
            val bytes = vs.save()
            vs.end()
            VsComputer.resume(bytes, settings, QueueVsListener()).use { back ->
                eq(answered.fen, back.state().fen)
                back.end()
            }
        } finally {
            vs.end()
        }
    }

    s.test("a jieqi match between two Match objects over loopback: fair reveals") {
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val offer = MatchOffer(GameKind.JIEQI, Color.RED, null, null)
        val host = Match.host("An", "127.0.0.1:0", false, boardGames(), offer, hostEvents)
        hostEvents.next<MatchEvent.Listening>()
        val guest = Match.join("Binh", host.address(), guestEvents)
        try {
            host.confirmCode(hostEvents.next<MatchEvent.VerifyCode>().code)
            guest.confirmCode(guestEvents.next<MatchEvent.VerifyCode>().code)
            eq(GameKind.JIEQI, guestEvents.next<MatchEvent.Proposed>().offer.game)
            guest.acceptProposal()
            hostEvents.next<MatchEvent.Started>()
            guestEvents.next<MatchEvent.Started>()
            eq(30, guest.state().board!!.cells.count { it.piece?.faceDown == true })
            for ((side, step) in listOf(host to "h2e2", guest to "h9g7", host to "b0c2")) {
                side.playText(step)
                val h = hostEvents.next<MatchEvent.PieceRevealed>()
                val g = guestEvents.next<MatchEvent.PieceRevealed>()
                eq(h.revealed.revealed, g.revealed.revealed, "both drew the same piece")
                eq(h.draw, g.draw)
                check(h.mine != g.mine) { "the piece is one side's" }
                check(h.revealed.announcement?.contains(" revealed: ") == true) { "${h.revealed}" }
            }
            val deadline = System.nanoTime() + 20_000_000_000L
            while (host.state().fen != guest.state().fen || !guest.state().yourTurn) {
                check(System.nanoTime() < deadline) { "the same position on both sides" }
                Thread.sleep(10)
            }
            eq(3u, 30u - host.state().board!!.pools.sumOf { it.total })
        } finally {
            guest.leave()
            host.leave()
        }
    }
}
