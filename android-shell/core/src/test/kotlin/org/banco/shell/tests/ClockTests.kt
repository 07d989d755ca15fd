// The clock in the shell: a match between two controllers over loopback where the host offers
// 5:00 + 3s, the guest's accept prompt shows Rust's text for it before accepting, and the
// clocks Rust makes ready to show (MatchState.clockFaces) run during play: the controller
// reads the state again by itself when the running clock's text changes, with no move and no
// call from the screen.
package org.banco.shell.tests

import org.banco.Color
import org.banco.GameKind
import org.banco.MatchClock
import org.banco.MatchPhase as Phase
import org.banco.clockPresets
import org.banco.offerClockText
import org.banco.shell.MatchController
import org.banco.shell.MemoryStore
import org.banco.shell.Settings

fun clockTests(s: Suite) {
    s.test("clock: the offered clock in the accept prompt, the running clocks in play, ticking by themselves") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        // The clock chosen in Settings (Rust's presets), stored and read back as a settings screen does.
        eq(listOf("5+3", "10+5", "15+10"), clockPresets().map { it.name }, "Rust's clock presets")
        eq("5:00 + 3s", clockPresets()[0].label, "a preset's label")
        val store = MemoryStore()
        Settings(game = GameKind.CHESS, color = Color.RED, playerName = "An", clock = "5+3").save(store)
        val settings = Settings.load(store)
        val offered = MatchClock(300_000u, 3_000u)
        eq(offered, settings.matchClock(), "the stored preset's clock")
        eq(null, Settings().matchClock(), "untimed by default")
        eq("5:00 + 3s", offerClockText(offered), "the host's own choice, as Rust writes it")
        val host = hostUi.call {
            MatchController.host(hostUi, settings, "127.0.0.1:0", advertise = false)
        }
        var guest: MatchController? = null
        try {
            val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
            val g = guestUi.call { MatchController.join(guestUi, "Binh", address) }
            guest = g
            val hc = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }.code!!
            val gc = guestUi.awaitMatch(g, "guest code") { it.phase == Phase.VERIFY }.code!!
            eq(null, guestUi.match(g).match?.offeredClock, "no prompt before a proposal")
            hostUi.call { host.confirmCode(hc) }
            guestUi.call { g.confirmCode(gc) }
            val prompt = guestUi.awaitMatch(g, "the proposal") { it.phase == Phase.PROPOSED }
            eq("5:00 + 3s", prompt.offeredClock, "the accept prompt shows the clock")
            eq("You play Black\nClock: 5:00 + 3s", prompt.offeredTerms, "the accept prompt's words (Rust's, as on iOS)")
            eq(null, prompt.clockFaces, "no clocks before the game")
            guestUi.call { g.acceptOffer(g.state.value.match!!.proposalId!!) }
            val hostFaces = hostUi.awaitMatch(host, "host playing") { it.phase == Phase.PLAYING }.clockFaces
            eq("5:00", hostFaces?.opponent?.text, "the host's state shows the clocks too (Black's not started)")
            val started = guestUi.awaitMatch(g, "guest playing") { it.phase == Phase.PLAYING }
            eq(null, started.offeredClock, "the prompt is gone once playing")
            val faces = started.clockFaces ?: throw AssertionError("a timed game shows clocks: $started")
            eq("5:00", faces.you.text, "Black's clock has not started")
            check(faces.opponent.running && !faces.you.running) { "White's clock runs first: $faces" }
            hostUi.call { host.play(org.banco.Move(org.banco.parseSquare(GameKind.CHESS, "e2"), org.banco.parseSquare(GameKind.CHESS, "e4"), null)) } // e2-e4
            val moved = guestUi.awaitMatch(g, "black to move") { it.yourTurn }
            val after = moved.clockFaces!!
            check(after.you.running && !after.opponent.running) { "now Black's runs: $after" }
            check(after.opponent.remainingMs > 299_000uL) { "White got its 3 s increment: $after" }
            check(after.nextChangeMs != null && after.nextChangeMs!! <= 1_000uL) { "Rust says when the text changes: $after" }
            // Nobody moves and nobody calls tick(): the controller's own timer shows Black's clock running.
            val later = guestUi.awaitMatch(g, "Black's clock counting down", seconds = 5) {
                it.clockFaces?.you?.text.let { t -> t != null && t != after.you.text }
            }.clockFaces!!
            check(later.you.remainingMs < after.you.remainingMs) { "Black's clock runs: $after -> $later" }
            eq(after.opponent.text, later.opponent.text, "White's clock is stopped")
            check(later.you.running && !later.you.low) { "$later" }
            // After a resignation nothing runs, and nothing more is scheduled.
            guestUi.call { g.resign() }
            val over = guestUi.awaitMatch(g, "over") { it.phase == Phase.OVER }.clockFaces!!
            check(!over.you.running && !over.opponent.running && over.nextChangeMs == null) { "$over" }
        } finally {
            guest?.let { c -> guestUi.call { c.leave() } }
            hostUi.call { host.leave() }
            hostUi.shutdown()
            guestUi.shutdown()
        }
    }
}
