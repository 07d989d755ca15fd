// The clock in the shell: the texts (offered clock, remaining time), then a match between
// two MatchModels over loopback where the host offers 5:00 + 3s, the guest's accept prompt
// shows it before accepting, and the running clocks are shown (and run) during play.
import Foundation
import BancoKit

func clockTests(_ s: Suite) {
    s.test("clock texts: offered clocks and remaining time") {
        try eq("untimed", clockText(nil))
        try eq("5:00 + 3s", clockText(MatchClock(baseMs: 300_000, incrementMs: 3_000)))
        try eq("10:00", clockText(MatchClock(baseMs: 600_000, incrementMs: 0)))
        try eq("0:10 + 0.5s", clockText(MatchClock(baseMs: 10_000, incrementMs: 500)))
        try eq("1:30:00 + 30s", clockText(MatchClock(baseMs: 5_400_000, incrementMs: 30_000)))
        try eq("0:42", remainingText(ms: 42_999))
        try eq("5:00", remainingText(ms: 300_000))
        try eq("4:59", remainingText(ms: 299_999))
        try eq("1:00:00", remainingText(ms: 3_600_000))
        try eq("0:10", remainingText(ms: 10_000))
        try eq("0:09.9", remainingText(ms: 9_999))
        try eq("0:00.0", remainingText(ms: -5), "never negative")
    }

    s.test("clock: the offered clock in the accept prompt, the running clocks in play") {
        let host = Side(), guest = Side()
        let settings = Settings(game: .chess, color: .red, playerName: "An")
        host.model = try host.ui.call {
            try MatchModel.host(ui: host.ui, settings: settings, address: "127.0.0.1:0", advertise: false,
                                clock: MatchClock(baseMs: 300_000, incrementMs: 3_000))
        }
        defer { guest.leave(); host.leave() }
        let address = try host.wait("listening") { $0.phase == .listening }.address
        guest.model = try guest.ui.call { try MatchModel.join(ui: guest.ui, name: "Binh", address: address) }
        let hc = try host.wait("host code") { $0.phase == .verify }.code!
        let gc = try guest.wait("guest code") { $0.phase == .verify }.code!
        try eq(nil, guest.state.offeredClock, "no prompt before a proposal")
        host.act { $0.confirmCode(hc) }
        guest.act { $0.confirmCode(gc) }
        try guest.wait("the proposal") { $0.phase == .proposed }
        try eq("5:00 + 3s", guest.state.offeredClock, "the accept prompt shows the clock")
        try eq(nil, guest.state.clocks, "no clocks before the game")
        guest.act { $0.acceptProposal() }
        try host.wait("host playing") { $0.phase == .playing }
        try guest.wait("guest playing") { $0.phase == .playing }
        try eq(nil, guest.state.offeredClock, "the prompt is gone once playing")
        guard let faces = guest.state.clocks else { throw TestFailure(description: "a timed game shows clocks") }
        try eq("5:00", faces.you, "Black's clock has not started")
        try check(faces.opponentClockRuns && !faces.yourClockRuns, "White's clock runs first: \(faces)")
        try host.tap("e2", "e4")
        let raw = try guest.wait("black to move") { $0.yourTurn }.clocks!
        let moved = guest.state.clocks!
        try check(moved.yourClockRuns && !moved.opponentClockRuns, "now Black's runs: \(moved)")
        try eq(remainingText(ms: Int64(raw[0])), moved.opponent, "White's clock from Rust's [first, second]")
        try check(raw[0] > 299_000, "White got its 3 s increment: \(raw)")
        // The clock runs: a tick a little over a second later shows less time for Black.
        Thread.sleep(forTimeInterval: 1.1)
        guest.act { $0.tick() }
        let later = guest.state
        let rawLater = later.match!.clocks!
        try check(rawLater[1] + 1_000 <= raw[1], "Black's clock runs: \(raw) -> \(rawLater)")
        try eq(remainingText(ms: Int64(rawLater[1])), later.clocks!.you, "the text follows Rust's clock")
        try check(later.clocks!.you != "5:00", "\(later.clocks!)")
        try eq(moved.opponent, later.clocks!.opponent, "White's clock is stopped")
    }
}
