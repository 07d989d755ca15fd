// The clock in the shell: the texts (offered clock, remaining time), then a match between
// two controllers over loopback where the host offers 5:00 + 3s, the guest's accept prompt
// shows it before accepting, and the running clocks are shown (and run) during play.
package org.banco.shell.tests

import org.banco.Color
import org.banco.GameKind
import org.banco.MatchClock
import org.banco.MatchPhase as Phase
import org.banco.shell.MatchController
import org.banco.shell.Settings
import org.banco.shell.clockText
import org.banco.shell.clocks
import org.banco.shell.offeredClock
import org.banco.shell.remainingText

fun clockTests(s: Suite) {
    s.test("clock texts: offered clocks and remaining time") {
        eq("untimed", clockText(null))
        eq("5:00 + 3s", clockText(MatchClock(300_000u, 3_000u)))
        eq("10:00", clockText(MatchClock(600_000u, 0u)))
        eq("0:10 + 0.5s", clockText(MatchClock(10_000u, 500u)))
        eq("1:30:00 + 30s", clockText(MatchClock(5_400_000u, 30_000u)))
        eq("0:42", remainingText(42_999))
        eq("5:00", remainingText(300_000))
        eq("4:59", remainingText(299_999))
        eq("1:00:00", remainingText(3_600_000))
        eq("0:10", remainingText(10_000))
        eq("0:09.9", remainingText(9_999))
        eq("0:00.0", remainingText(0))
        eq("0:00.0", remainingText(-5), "never negative")
    }

    s.test("clock: the offered clock in the accept prompt, the running clocks in play") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        val settings = Settings(game = GameKind.CHESS, color = Color.RED, playerName = "An")
        val host = hostUi.call {
            MatchController.host(hostUi, settings, "127.0.0.1:0", advertise = false, clock = MatchClock(300_000u, 3_000u))
        }
        var guest: MatchController? = null
        try {
            val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
            val g = guestUi.call { MatchController.join(guestUi, "Binh", address) }
            guest = g
            val hc = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }.code!!
            val gc = guestUi.awaitMatch(g, "guest code") { it.phase == Phase.VERIFY }.code!!
            eq(null, guestUi.match(g).offeredClock, "no prompt before a proposal")
            hostUi.call { host.confirmCode(hc) }
            guestUi.call { g.confirmCode(gc) }
            guestUi.awaitMatch(g, "the proposal") { it.phase == Phase.PROPOSED }
            val prompt = guestUi.match(g)
            eq("5:00 + 3s", prompt.offeredClock, "the accept prompt shows the clock")
            eq(null, prompt.clocks, "no clocks before the game")
            guestUi.call { g.acceptProposal() }
            hostUi.awaitMatch(host, "host playing") { it.phase == Phase.PLAYING }
            guestUi.awaitMatch(g, "guest playing") { it.phase == Phase.PLAYING }
            var gs = guestUi.match(g)
            eq(null, gs.offeredClock, "the prompt is gone once playing")
            var faces = gs.clocks ?: throw AssertionError("a timed game shows clocks: ${gs.match}")
            eq("5:00", faces.you, "Black's clock has not started")
            check(faces.opponentClockRuns && !faces.yourClockRuns) { "White's clock runs first: $faces" }
            hostUi.call { host.play(org.banco.Move(org.banco.parseSquare(GameKind.CHESS, "e2"), org.banco.parseSquare(GameKind.CHESS, "e4"), null)) } // e2-e4
            gs = guestUi.awaitMatch(g, "black to move") { it.yourTurn }.let { guestUi.match(g) }
            faces = gs.clocks!!
            check(faces.yourClockRuns && !faces.opponentClockRuns) { "now Black's runs: $faces" }
            val raw = gs.match!!.clocks!!
            eq(remainingText(raw[0].toLong()), faces.opponent, "White's clock from Rust's [first, second]")
            check(raw[0] > 299_000uL) { "White got its 3 s increment: $raw" }
            // The clock runs: a tick a little over a second later shows less time for Black.
            Thread.sleep(1_100)
            guestUi.call { g.tick() }
            val later = guestUi.match(g).clocks!!
            val rawLater = guestUi.match(g).match!!.clocks!!
            check(rawLater[1] + 1_000uL <= raw[1]) { "Black's clock runs: $raw -> $rawLater" }
            eq(remainingText(rawLater[1].toLong()), later.you, "the text follows Rust's clock")
            check(later.you != "5:00") { "$later" }
            eq(later.opponent, faces.opponent, "White's clock is stopped")
        } finally {
            guest?.let { c -> guestUi.call { c.leave() } }
            hostUi.call { host.leave() }
            hostUi.shutdown()
            guestUi.shutdown()
        }
    }
}
