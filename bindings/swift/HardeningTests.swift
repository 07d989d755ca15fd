// Issue #16 over the FFI from Swift: the offered clock in the proposal before accepting,
// a clock under the minimum refused, the running clocks and a loss on time; a stale code
// confirmation refused; a host paused by codes nobody confirmed, reopened; stored trust
// skipping the code, and another key under a known name raising the warning.
import Foundation

private func listening(_ l: SwiftMatchListener) throws -> String {
    try l.next("listening") { e -> String? in if case .listening(let a) = e { return a }; return nil }
}

private func code(from name: String, _ l: SwiftMatchListener) throws -> String {
    try l.next("a code from \(name)") { e -> String? in
        if case .verifyCode(let c, let n) = e, n == name { return c }; return nil
    }
}

private func verified(_ l: SwiftMatchListener) throws -> String {
    try l.next("verified") { e -> String? in if case .peerVerified(let n) = e { return n }; return nil }
}

func hardeningTests(_ s: Suite) {
    s.test("a typed clock: read as the terminal reads it, written back, refused with what to type") {
        try eq(MatchClock(baseMs: 420_000, incrementMs: 2_000), try parseClock(text: "7+2"), "minutes + seconds")
        try eq("30s+1", clockText(clock: try parseClock(text: "0.5 + 1")), "half a minute, written back in seconds")
        try eq("10", clockText(clock: try parseClock(text: "10")), "no increment")
        for bad in ["5s", "", "five", "1441", "5+3601"] {
            let m = try fails(.invalidArgument) { _ = try parseClock(text: bad) }
            try check(!m.isEmpty, bad)
        }
        let m = try fails(.invalidArgument) { _ = try parseClock(text: "5s") }
        try check(m.contains("at least 10s"), "the minimum said: \(m)")
        for t in garbageStrings { try mayFail(.invalidArgument) { _ = try parseClock(text: t) } }
    }

    s.test("hardening: the offered clock shown before accepting; clocks run; a flag falls") {
        let clock = MatchClock(baseMs: 10_000, incrementMs: 0)
        let hl = SwiftMatchListener(), gl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false, offers: [],
                                  proposal: MatchOffer(game: .chess, yourColor: .red, rules: nil, startFen: nil, clock: clock),
                                  listener: hl)
        defer { try? host.leave() }
        let guest = try Match.join(playerName: "Binh", address: try listening(hl), listener: gl)
        defer { try? guest.leave() }
        try host.confirmCode(code: try code(from: "Binh", hl))
        try guest.confirmCode(code: try code(from: "An", gl))
        let offer = try gl.next("proposal") { e -> MatchOffer? in if case .proposed(let o, _) = e { return o }; return nil }
        try eq(clock, offer.clock, "the clock in the proposal event")
        let shown = try waitState(guest, "the proposal shown") { $0.phase == .proposed }
        try eq(clock, shown.proposal?.clock, "the clock in the proposal to accept")
        try eq("0:10", shown.offeredClock, "the clock as the accept prompt shows it")
        try guest.acceptProposal()
        let start = try waitState(host, "playing") { $0.phase == .playing }
        guard let clocks = start.clocks else { throw TestFailure(description: "a timed game has clocks") }
        try eq(2, clocks.count)
        try check(clocks.allSatisfy { (9_000...10_000).contains($0) }, "both clocks near 10 s: \(clocks)")
        _ = try host.playText(text: "e4")
        _ = try waitState(guest, "black to move") { $0.yourTurn }
        Thread.sleep(forTimeInterval: 1.0)
        let running = try guest.state().clocks ?? []
        try check(running.count == 2 && running[1] <= 9_100 && running[0] >= 9_000, "Black's runs, White's stopped: \(running)")
        // Black never answers: its 10 s run out, and both sides see the loss on time.
        for l in [gl, hl] {
            let o = try l.next("game over") { e -> Outcome? in if case .gameOver(let o, _) = e { return o }; return nil }
            try eq(Outcome.win(winner: .red, reason: .timeout), o)
        }
        let over = try waitState(guest, "over") { $0.phase == .over }
        try check(over.result?.hasPrefix("You lost") == true, "\(String(describing: over.result))")
        // The loser's clock shows no time left, on both sides, and stands still.
        for m in [guest, host] {
            let c = try m.state().clocks ?? []
            try check(c.count == 2 && c[1] == 0 && (9_000...10_000).contains(c[0]), "after the loss on time: \(c)")
        }
        let black = try guest.state().clockFaces, white = try host.state().clockFaces
        try eq("0:00.0", black?.you.text, "the loser's own clock face")
        try eq(black?.you, white?.opponent, "the same face on both sides")
        try check(black?.you.low == true && black?.you.running == false && black?.nextChangeMs == nil, "\(String(describing: black))")
        let why = try fails(.match) {
            try host.propose(offer: MatchOffer(game: .chess, yourColor: .red, rules: nil, startFen: nil,
                                               clock: MatchClock(baseMs: 100, incrementMs: 0)))
        }
        try check(why.contains("minimum"), why)
        try check(gl.events.all.filter { if case .proposed = $0 { return true }; return false }.count == 1,
                  "the short clock never reached the guest")
    }

    s.test("hardening: a stale code is refused; unconfirmed codes pause the host until reopened") {
        let hl = SwiftMatchListener()
        let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false, offers: [],
                                  proposal: nil, listener: hl)
        defer { try? host.leave() }
        let address = try listening(hl)
        var stale = ""
        for i in 1...5 {
            let m = try Match.join(playerName: "Stranger\(i)", address: address, listener: SwiftMatchListener())
            let c = try code(from: "Stranger\(i)", hl)
            if i == 1 { stale = c }
            if i == 2 {
                try check(c != stale, "a new device, a new code")
                let why = try fails(.match) { try host.confirmCode(code: stale) }
                try check(why.contains("code changed"), why)
                try eq(MatchPhase.verify, try host.state().phase, "the refusal confirmed nothing")
            }
            let paused = hl.events.all.compactMap { e -> UInt32? in if case .hostPaused(let a) = e { return a }; return nil }
            try eq(i == 5 ? [5] : [], paused, "paused after the fifth code only")
            // The player compares and says no: a rejected code counts (a device that hangs
            // up before its code was seen counts against its address only).
            try host.rejectCode()
            try m.leave()
        }
        try check(!hl.events.all.contains { if case .closed = $0 { return true }; return false }, "the host must not stop")
        try host.reopen()
        let gl = SwiftMatchListener()
        let guest = try Match.join(playerName: "Binh", address: address, listener: gl)
        defer { try? guest.leave() }
        try host.confirmCode(code: try code(from: "Binh", hl))
        try guest.confirmCode(code: try code(from: "An", gl))
        try eq("Binh", try verified(hl))
    }

    s.test("hardening: stored trust skips the code; another key under a known name is loud") {
        func pairOnce(_ h: Data, _ g: Data, expectCode: Bool) throws -> (Data, Data, [MatchEvent]) {
            let hl = SwiftMatchListener(), gl = SwiftMatchListener()
            let host = try Match.host(playerName: "An", listenAddress: "127.0.0.1:0", advertise: false,
                                      offers: [], proposal: nil, listener: hl, trust: h)
            defer { try? host.leave() }
            let guest = try Match.join(playerName: "Binh", address: try listening(hl), listener: gl, trust: g)
            defer { try? guest.leave() }
            if expectCode {
                try host.confirmCode(code: try code(from: "Binh", hl))
                try guest.confirmCode(code: try code(from: "An", gl))
            }
            try eq("Binh", try verified(hl))
            try eq("An", try verified(gl))
            let asked = (hl.events.all + gl.events.all).contains { if case .verifyCode = $0 { return true }; return false }
            try eq(expectCode, asked, "asked for a code")
            try eq(try trustFingerprint(trust: h), try trustFingerprint(trust: try host.exportTrust()), "identity kept")
            return (try host.exportTrust(), try guest.exportTrust(), hl.events.all)
        }
        let (h, g, first) = try pairOnce(try newTrust(), try newTrust(), expectCode: true)
        try check(!first.contains { if case .peerKeyChanged = $0 { return true }; return false })
        _ = try pairOnce(h, g, expectCode: false)
        let (_, _, third) = try pairOnce(h, try newTrust(), expectCode: true)
        let warned = third.compactMap { e -> String? in if case .peerKeyChanged(let n) = e { return n }; return nil }
        try eq(["Binh"], warned, "the warning names the player")
    }
}
