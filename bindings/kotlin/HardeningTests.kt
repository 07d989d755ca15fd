// Issue #16 over the FFI: the offered clock shown in the proposal before accepting (and a
// clock under the minimum refused), the running clocks and a loss on time; a confirmation
// of a code that is no longer the one shown is refused; a host that saw too many codes
// nobody confirmed pauses until reopened; stored trust lets a second match skip the code.
package org.banco.tests

import org.banco.*

/** A host on loopback with [he] listening; returns it and its address. */
private fun hostOn(he: QueueMatchListener, offer: MatchOffer?, trust: ByteArray? = null): kotlin.Pair<Match, String> {
    val host = Match.host("An", "127.0.0.1:0", false, boardGames(), offer, he, trust)
    return host to he.next<MatchEvent.Listening>().address
}

/** The next VerifyCode from the device named [name]. */
private fun QueueMatchListener.codeFrom(name: String): String {
    while (true) {
        val v = next<MatchEvent.VerifyCode>()
        if (v.peerName == name) return v.code
    }
}

fun hardeningTests(s: Suite) {
    s.test("hardening: the offered clock is shown before accepting; clocks run; a flag falls") {
        val he = QueueMatchListener("host")
        val ge = QueueMatchListener("guest")
        val clock = MatchClock(10_000u, 0u)
        val (host, address) = hostOn(he, MatchOffer(GameKind.CHESS, Color.RED, null, null, clock))
        val guest = Match.join("Binh", address, ge)
        try {
            host.confirmCode(he.next<MatchEvent.VerifyCode>().code)
            guest.confirmCode(ge.next<MatchEvent.VerifyCode>().code)
            val proposed = ge.next<MatchEvent.Proposed>()
            eq(clock, proposed.offer.clock, "the clock in the proposal event")
            eq(clock, guest.state().proposal?.clock, "the clock in the proposal to accept")
            eq("0:10", guest.state().offeredClock, "the clock as the accept prompt shows it")
            eq(MatchPhase.PROPOSED, guest.state().phase)
            guest.acceptProposal()
            he.next<MatchEvent.Started>()
            ge.next<MatchEvent.Started>()
            val start = host.state().clocks ?: throw AssertionError("a timed game has clocks")
            eq(2, start.size)
            check(start.all { it in 9_000uL..10_000uL }) { "both clocks start near 10 s: $start" }
            host.playText("e4")
            bothSee(he, ge)
            Thread.sleep(1_000)
            val running = guest.state().clocks!!
            check(running[1] <= 9_100uL && running[0] >= 9_000uL) { "Black's clock runs, White's stopped: $running" }
            // Black never answers: after its 10 s the game is lost on time, on both sides.
            val over = ge.next<MatchEvent.GameOver>()
            eq(Outcome.Win(Color.RED, WinReason.TIMEOUT), over.outcome)
            eq(Outcome.Win(Color.RED, WinReason.TIMEOUT), he.next<MatchEvent.GameOver>().outcome)
            check(guest.state().result?.startsWith("You lost") == true) { "${guest.state().result}" }
            check(host.state().result?.startsWith("You won") == true) { "${host.state().result}" }
            // The loser's clock shows no time left, on both sides, and stands still.
            for (m in listOf(guest, host)) {
                val c = m.state().clocks!!
                eq(0uL, c[1], "Black's clock after the loss on time")
                check(c[0] in 9_000uL..10_000uL) { "White's clock stopped: $c" }
            }
            val black = guest.state().clockFaces!!
            val white = host.state().clockFaces!!
            eq("0:00.0", black.you.text, "the loser's own clock face")
            eq(black.you, white.opponent, "the same face on both sides")
            check(black.you.low && !black.you.running && !black.opponent.running && black.nextChangeMs == null) { "$black" }
            eq(MatchPhase.OVER, host.state().phase)
            // A clock under the 10 s minimum cannot even be proposed (a host cannot win on a 100 ms clock).
            val e = throws<BancoException.Match> { host.propose(MatchOffer(GameKind.CHESS, Color.RED, null, null, MatchClock(100u, 0u))) }
            check(e.message!!.contains("minimum")) { "${e.message}" }
            check(ge.seen.count { it is MatchEvent.Proposed } == 1) { "nothing reached the guest: ${ge.seen}" }
        } finally {
            guest.leave()
            host.leave()
            guest.destroy()
            host.destroy()
        }
    }

    s.test("hardening: a confirmation of a code no longer shown is refused") {
        val he = QueueMatchListener("host")
        val (host, address) = hostOn(he, null)
        val firstEvents = QueueMatchListener("first")
        val first = Match.join("First", address, firstEvents)
        val stale = he.codeFrom("First")
        // The first device goes away before anyone confirmed: the host keeps listening.
        first.leave()
        first.destroy()
        val ge = QueueMatchListener("second")
        val second = Match.join("Second", address, ge)
        try {
            val fresh = he.codeFrom("Second")
            check(fresh != stale) { "a new handshake gives a new code" }
            eq(fresh, host.code())
            val e = throws<BancoException.Match> { host.confirmCode(stale) }
            check(e.message!!.contains("code changed")) { "${e.message}" }
            eq(MatchPhase.VERIFY, host.state().phase, "the refusal confirmed nothing")
            check(he.seen.none { it is MatchEvent.PeerVerified || it is MatchEvent.Closed }) { "${he.seen}" }
            // A code never shown is mistyped, not changed: no false warning of another device.
            val typo = (1..3).map { "%06d".format((fresh.toInt() + it) % 1_000_000) }.first { it != stale }
            val e2 = throws<BancoException.Match> { host.confirmCode(typo) }
            check(e2.message!!.contains("not the code shown")) { "${e2.message}" }
            // A pasted wall of digits is echoed cut, not whole.
            val e3 = throws<BancoException> { host.confirmCode("1".repeat(1_000_000)) }
            check(e3.message!!.length < 200) { "${e3.message!!.length} characters" }
            eq(MatchPhase.VERIFY, host.state().phase, "neither refusal confirmed anything")
            host.confirmCode(fresh)
            second.confirmCode(ge.next<MatchEvent.VerifyCode>().code)
            eq("Second", he.next<MatchEvent.PeerVerified>().peerName)
            eq("An", ge.next<MatchEvent.PeerVerified>().peerName)
        } finally {
            second.leave()
            host.leave()
            second.destroy()
            host.destroy()
        }
    }

    s.test("hardening: codes nobody confirmed pause the host until it reopens") {
        val he = QueueMatchListener("host")
        val (host, address) = hostOn(he, null)
        try {
            for (i in 1..5) {
                val l = QueueMatchListener("stranger $i")
                val m = Match.join("Stranger$i", address, l)
                he.codeFrom("Stranger$i")
                eq(i == 5, he.seen.any { it is MatchEvent.HostPaused }, "paused after the fifth code only")
                // The player compares and says no: a rejected code counts (a device that
                // hangs up before its code was seen counts against its address only).
                host.rejectCode()
                m.leave()
                m.destroy()
            }
            // (HostPaused comes before the fifth code, so read it from everything seen.)
            val paused = he.seen.filterIsInstance<MatchEvent.HostPaused>()
            eq(listOf(5u), paused.map { it.attempts }, "one pause after five codes")
            check(he.seen.none { it is MatchEvent.Closed }) { "the host must not stop: ${he.seen}" }
            host.reopen()
            eq(MatchPhase.LISTENING, host.state().phase)
            val ge = QueueMatchListener("guest")
            val guest = Match.join("Binh", address, ge)
            try {
                host.confirmCode(he.codeFrom("Binh"))
                guest.confirmCode(ge.next<MatchEvent.VerifyCode>().code)
                eq("Binh", he.next<MatchEvent.PeerVerified>().peerName)
            } finally {
                guest.leave()
                guest.destroy()
            }
        } finally {
            host.leave()
            host.destroy()
        }
    }

    s.test("hardening: exported trust re-imported skips the code; another key under a known name is loud") {
        val hostTrust = newTrust()
        val guestTrust = newTrust()
        check(trustFingerprint(hostTrust) != trustFingerprint(guestTrust)) { "two identities" }
        /** One pairing; answers what both sides export after it and the host's events. */
        fun pair(h: ByteArray, g: ByteArray, expectCode: Boolean): Triple<ByteArray, ByteArray, List<MatchEvent>> {
            val he = QueueMatchListener("host")
            val ge = QueueMatchListener("guest")
            val (host, address) = hostOn(he, null, h)
            val guest = Match.join("Binh", address, ge, g)
            try {
                if (expectCode) {
                    host.confirmCode(he.codeFrom("Binh"))
                    guest.confirmCode(ge.next<MatchEvent.VerifyCode>().code)
                }
                eq("Binh", he.next<MatchEvent.PeerVerified>().peerName)
                eq("An", ge.next<MatchEvent.PeerVerified>().peerName)
                check(expectCode || (he.seen + ge.seen).none { it is MatchEvent.VerifyCode }) { "asked again: ${he.seen}" }
                eq(trustFingerprint(h), trustFingerprint(host.exportTrust()), "the host keeps its identity")
                eq(trustFingerprint(g), trustFingerprint(guest.exportTrust()), "the guest keeps its identity")
                return Triple(host.exportTrust(), guest.exportTrust(), he.seen.toList())
            } finally {
                guest.leave()
                host.leave()
                guest.destroy()
                host.destroy()
            }
        }
        val (h1, g1, first) = pair(hostTrust, guestTrust, true)
        check(first.none { it is MatchEvent.PeerKeyChanged }) { "$first" }
        // Both stored what they exported: the next match skips the code on both sides.
        pair(h1, g1, false)
        // "Binh" comes back with another key (a reinstall, or someone impersonating):
        // the host warns and the code is compared again.
        val (_, _, third) = pair(h1, newTrust(), true)
        val warned = third.filterIsInstance<MatchEvent.PeerKeyChanged>()
        eq(listOf("Binh"), warned.map { it.peerName }, "the warning names the player")
        check(third.indexOfFirst { it is MatchEvent.PeerKeyChanged } < third.indexOfFirst { it is MatchEvent.VerifyCode }) { "warned before the code: $third" }
    }
}
